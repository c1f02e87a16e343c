/* wrk_worker.c — a hostile (or restarted) scheduler against a real referee
 * worker (worker_run in a thread, real bot processes, CURVE over loopback):
 * a ROUTER spoken by hand. Each check failed before the fix it guards
 * (docs/security.md, "Worker and scheduler key holders"):
 *   - an assignment naming a transcript path had the worker open it
 *     O_TRUNC (as root: any file replaced): now assignments name no path
 *     (the old layout is malformed) and the worker creates its own file,
 *     exclusively, never through a link;
 *   - overlong strings, bad digests, unsafe program paths, control
 *     characters, a negative match id: dropped, the worker keeps running;
 *   - a scheduler that asks for hellos (as a restarted one does on every
 *     frame) got every unacknowledged result once per hello (hundreds):
 *     now a result is resent with backoff, and any acknowledgement stops it.
 *
 * argv[1]: a bot program (the SDK's random_bot). */
#include "worker.h"
#include "arb_file.h"
#include "wire.h"
#include "zap.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_log.h"
#include "arb_time.h"
#include "../unit/test_util.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <msgpack.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#define HEARTBEAT_MS 100
#define WAIT_MS 30000

static void *router;
static uint8_t wrid[256];        /* the worker's routing id, from its hello */
static size_t wridlen;
static int beats_heard, results_heard, hellos_heard;
static int64_t last_result_id = -1;
static wire_result last_result;
static bool rehello_on_beat;     /* answer every heartbeat with "say hello again" */
static int beats_naming_8;       /* heartbeats that named match 8, generation 1, as held */

static uint64_t now_ms(void) { return arb_now_ns() / 1000000u; }

static void to_worker(const void *data, size_t len)
{
    zmq_send(router, wrid, wridlen, ZMQ_SNDMORE);
    zmq_send(router, data, len, 0);
}

static void to_worker_owned(uint8_t *data, size_t len)
{
    to_worker(data, len);
    free(data);
}

/* Read what the worker sent for ms, beating every heartbeat period. */
static void pump(int ms)
{
    static uint64_t next_beat;
    uint64_t end = now_ms() + (uint64_t)ms;
    do {
        if (wridlen && now_ms() >= next_beat) {
            uint8_t *b;
            size_t len;
            if (wire_heartbeat(-1, NULL, 0, &b, &len) == 0)
                to_worker_owned(b, len);
            next_beat = now_ms() + HEARTBEAT_MS;
        }
        zmq_pollitem_t item = {router, 0, ZMQ_POLLIN, 0};
        zmq_poll(&item, 1, 10);
        for (;;) {
            zmq_msg_t rid, m;
            zmq_msg_init(&rid);
            if (zmq_msg_recv(&rid, router, ZMQ_DONTWAIT) < 0) {
                zmq_msg_close(&rid);
                break;
            }
            zmq_msg_init(&m);
            int n = zmq_msg_recv(&m, router, 0);
            const uint8_t *d = zmq_msg_data(&m);
            int kind = n >= 0 ? wire_kind_of(d, (size_t)n) : -1;
            if (kind == WIRE_HELLO) {
                hellos_heard++;
                wridlen = zmq_msg_size(&rid);
                memcpy(wrid, zmq_msg_data(&rid), wridlen);
                uint8_t *b;
                size_t len;
                if (wire_welcome(HEARTBEAT_MS, &b, &len) == 0)
                    to_worker_owned(b, len);
            } else if (kind == WIRE_HEARTBEAT) {
                beats_heard++;
                wire_lease held[ARB_WORKER_MAX_SLOTS];
                int free_slots, nheld = 0;
                if (wire_decode_heartbeat(d, (size_t)n, &free_slots, held, ARB_WORKER_MAX_SLOTS, &nheld) == 0)
                    for (int i = 0; i < nheld; i++)
                        beats_naming_8 += held[i].match_id == 8 && held[i].gen == 1;
                uint8_t *b;
                size_t len;
                if (rehello_on_beat && wire_rehello(&b, &len) == 0)
                    to_worker_owned(b, len);
            } else if (kind == WIRE_RESULT) {
                match_result_release(&last_result.res);
                if (wire_decode_result(d, (size_t)n, &last_result) == 0) {
                    results_heard++;
                    last_result_id = last_result.match_id;
                }
            }
            zmq_msg_close(&m);
            zmq_msg_close(&rid);
        }
    } while (now_ms() < end);
}

/* ---- Assignments, good and bad ------------------------------------------ */

static msgpack_sbuffer sb;
static msgpack_packer pk;

static void pstr(const char *s) { msgpack_pack_str_with_body(&pk, s, strlen(s)); }

/* An assignment of match id/gen for three bots running `bot`, by hand so
 * that every field can be made hostile: old_path adds the version-2
 * transcript path; name, arg, digest and path replace those fields. */
static void assign(int64_t id, int gen, const char *bot, const char *old_path, const char *name, const char *arg,
                   const char *digest, const char *path)
{
    msgpack_sbuffer_clear(&sb);
    msgpack_pack_array(&pk, old_path ? 6 : 5);
    msgpack_pack_int(&pk, WIRE_ASSIGN);
    msgpack_pack_int64(&pk, id);
    msgpack_pack_int(&pk, gen);
    msgpack_pack_array(&pk, 18);
    pstr("doudizhu");
    pstr("standard");
    pstr("");
    msgpack_pack_uint64(&pk, 77);
    static const uint8_t key[32] = {7};           /* the match key (version 3) */
    msgpack_pack_bin_with_body(&pk, key, sizeof key);
    pstr("match|77|1|0");
    pstr("");
    msgpack_pack_uint32(&pk, 1);
    msgpack_pack_uint8(&pk, 0);
    msgpack_pack_false(&pk);
    msgpack_pack_int64(&pk, 2000);
    msgpack_pack_int64(&pk, 20000);
    msgpack_pack_int64(&pk, 0);
    msgpack_pack_int64(&pk, 5000);
    msgpack_pack_uint8(&pk, 0);
    msgpack_pack_uint32(&pk, 3);
    msgpack_pack_int64(&pk, -10);
    msgpack_pack_array(&pk, 3);
    for (int b = 0; b < 3; b++) {
        char nm[16];
        snprintf(nm, sizeof nm, "bot%d", b);
        msgpack_pack_array(&pk, 2);
        pstr(b == 0 && name ? name : nm);
        msgpack_pack_array(&pk, b == 0 && arg ? 2 : 1);
        pstr(bot);
        if (b == 0 && arg)
            pstr(arg);
    }
    if (old_path)
        pstr(old_path);
    msgpack_pack_array(&pk, digest ? 1 : 0);
    if (digest) {
        msgpack_pack_array(&pk, 4);
        msgpack_pack_int(&pk, 0);
        msgpack_pack_int(&pk, 0);
        pstr(digest);
        pstr(path);
    }
    to_worker(sb.data, sb.size);
}

static bool file_says(const char *path, const char *want)
{
    char buf[64] = "";
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    return strcmp(buf, want) == 0;
}

/* Entries of dir, other than . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

static volatile sig_atomic_t wstop;

static void *worker_main(void *arg)
{
    worker_options *o = arg;
    int *rc = malloc(sizeof *rc);
    *rc = worker_run(o);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2 || access(argv[1], X_OK) != 0) {
        fprintf(stderr, "usage: wrk_worker BOT-PROGRAM\n");
        return 2;
    }
    arb_log_setup(ARB_LOG_ERROR, ARB_LOG_TEXT);
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    char tmp[] = "/tmp/arbiter-wrk-worker-XXXXXX";
    if (!mkdtemp(tmp))
        return 2;
    chmod(tmp, 0755);   /* bots of other uids (as root) reach nothing here but their own dirs */
    char work[600], tdir[700], victim[600];
    snprintf(work, sizeof work, "%s/work", tmp);
    snprintf(tdir, sizeof tdir, "%s/transcripts", work);
    snprintf(victim, sizeof victim, "%s/victim", tmp);
    mkdir(work, 0711);
    FILE *vf = fopen(victim, "w");
    if (vf) {
        fputs("precious", vf);
        fclose(vf);
    }

    char spub[ZAP_KEY_TEXT], ssec[ZAP_KEY_TEXT], wpub[ZAP_KEY_TEXT], wsec[ZAP_KEY_TEXT];
    CHECK(zap_keygen(spub, ssec) == 0 && zap_keygen(wpub, wsec) == 0);
    void *ctx = zmq_ctx_new();
    router = zmq_socket(ctx, ZMQ_ROUTER);
    int linger = 0;
    zmq_setsockopt(router, ZMQ_LINGER, &linger, sizeof linger);
    char ep[256];
    size_t eplen = sizeof ep;
    if (zap_curve_server(router, ssec) != 0 || zmq_bind(router, "tcp://127.0.0.1:*") != 0
        || zmq_getsockopt(router, ZMQ_LAST_ENDPOINT, ep, &eplen) != 0)
        return 2;

    worker_stats st = {0};
    worker_options o = {.zmq_ctx = ctx, .endpoint = ep, .name = "victim-worker", .workdir = work, .slots = 2,
                        .heartbeat_ms = HEARTBEAT_MS, .heartbeat_misses = 50, .stop = &wstop, .stop_now = NULL,
                        .public_key = wpub, .secret_key = wsec, .server_key = spub, .stats = &st};
    o.live.sandbox = LIVE_SANDBOX_AUTO;
    pthread_t th;
    if (pthread_create(&th, NULL, worker_main, &o) != 0)
        return 2;
    uint64_t end = now_ms() + WAIT_MS;
    while (!wridlen && now_ms() < end)
        pump(20);
    CHECK(wridlen == WIRE_ROUTING_ID_BYTES);   /* a route nobody can guess */

    /* 1. A hostile scheduler: every one of these is dropped. */
    const char *good = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    char huge[100000];
    memset(huge, 'a', sizeof huge - 1);
    huge[sizeof huge - 1] = 0;
    unsigned long long dropped0 = atomic_load(&st.frames_dropped);
    assign(1, 1, argv[1], victim, NULL, NULL, NULL, NULL);            /* the old layout: a path to open */
    assign(2, 1, argv[1], NULL, huge, NULL, NULL, NULL);              /* an overlong bot name */
    assign(3, 1, argv[1], NULL, "bad\x1b[2Jname", NULL, NULL, NULL);  /* control characters */
    assign(4, 1, argv[1], NULL, NULL, "\xff\xfe", NULL, NULL);        /* an argument that is not UTF-8 */
    assign(5, 1, argv[1], NULL, NULL, "x", "../../../../../../../../../../../../../../../../../../../../tmp/x",
           "run");                                                     /* a digest that is a path */
    assign(6, 1, argv[1], NULL, NULL, "x", good, "../../victim");     /* a program path out of the cache */
    assign(-7, 1, argv[1], NULL, NULL, NULL, NULL, NULL);             /* a negative match id (a file name) */
    to_worker("\xdd\xff\xff\xff\xff\x01", 6);                         /* an array of 4 billion */
    const int bad = 8;
    end = now_ms() + WAIT_MS;
    while (atomic_load(&st.frames_dropped) < dropped0 + bad && now_ms() < end)
        pump(20);
    pump(300);
    CHECKF(atomic_load(&st.frames_dropped) == dropped0 + bad, "dropped %llu of %d",
           (unsigned long long)(atomic_load(&st.frames_dropped) - dropped0), bad);
    CHECK(atomic_load(&st.running) == 0 && results_heard == 0);
    CHECK(file_says(victim, "precious"));
    CHECKF(entries(tmp) == 2, "%d entries in %s (work and victim only)", entries(tmp), tmp);
    int beats0 = beats_heard;
    pump(500);
    CHECK(beats_heard > beats0);   /* still running */

    /* 2. An honest assignment: played, its transcript where the worker
     * chose, named from the match id. A link planted under that name is
     * not followed (another name is taken). */
    char planted[800];
    mkdir(tdir, 0700);
    snprintf(planted, sizeof planted, "%s/m8-g1.arbt", tdir);
    CHECK(symlink(victim, planted) == 0);
    assign(8, 1, argv[1], NULL, NULL, NULL, NULL, NULL);
    end = now_ms() + WAIT_MS;
    while (results_heard == 0 && now_ms() < end)
        pump(20);
    CHECKF(results_heard == 1 && last_result_id == 8 && last_result.ok, "results %d, match %" PRId64 ", ok %d: %s",
           results_heard, last_result_id, last_result.ok, last_result.error);
    char want[800];
    snprintf(want, sizeof want, "%s/m8-g1-1.arbt", tdir);
    CHECKF(strcmp(last_result.transcript, want) == 0, "transcript at %s", last_result.transcript);
    struct stat sbuf;
    CHECK(lstat(want, &sbuf) == 0 && S_ISREG(sbuf.st_mode) && (sbuf.st_mode & 0777) == 0600 && sbuf.st_size > 0);
    CHECK(file_says(victim, "precious"));
    CHECK(entries(tmp) == 2);

    /* 2b. Its result not yet acknowledged (the scheduler's database full or
     * restarting), the worker's heartbeats still name the match as held:
     * the scheduler keeps its lease for the result it cannot record yet
     * (they named only the slots' matches, and the scheduler gave a
     * finished match back to the queue to be played again). */
    int named0 = beats_naming_8;
    pump(5 * HEARTBEAT_MS);
    CHECKF(beats_naming_8 - named0 >= 3, "%d heartbeats named match 8 while its result waited", beats_naming_8 - named0);

    /* 3. A scheduler that asks for hellos on every heartbeat (as one that
     * restarted does) and acknowledges nothing: the result comes a handful
     * of times (backoff 1 s, 2 s, 4 s ...), not once per hello. */
    int results0 = results_heard, hellos0 = hellos_heard;
    rehello_on_beat = true;
    pump(6000);
    rehello_on_beat = false;
    int resent = results_heard - results0;
    CHECKF(hellos_heard - hellos0 >= 20, "%d hellos", hellos_heard - hellos0);
    CHECKF(resent >= 1 && resent <= 4, "the result came %d times in 6 s of hellos", resent);
    /* Any acknowledgement stops it. */
    uint8_t *b;
    size_t len;
    if (wire_ack(8, 1, &b, &len) == 0)
        to_worker_owned(b, len);
    pump(200);
    results0 = results_heard;
    pump(5000);
    CHECKF(results_heard == results0, "%d results after the acknowledgement", results_heard - results0);
    CHECK(atomic_load(&st.unacked) == 0);
    named0 = beats_naming_8;
    pump(5 * HEARTBEAT_MS);
    CHECKF(beats_naming_8 == named0, "%d heartbeats named match 8 once acknowledged", beats_naming_8 - named0);

    __atomic_store_n(&wstop, 1, __ATOMIC_RELAXED);   /* read by the worker's thread */
    end = now_ms() + WAIT_MS;
    void *rcp = NULL;
    while (pthread_tryjoin_np(th, &rcp) != 0 && now_ms() < end)
        pump(50);
    CHECK(rcp && *(int *)rcp == 0);
    free(rcp);
    match_result_release(&last_result.res);
    zmq_close(router);
    zmq_ctx_term(ctx);
    msgpack_sbuffer_destroy(&sb);
    if (arb_remove_tree(tmp) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return TEST_DONE("wrk_worker");
}
