/* worker.c — the referee worker: slots, heartbeats, results kept until
 * acknowledged, programs fetched by digest (worker.h). */
#include "worker.h"
#include "bundle.h"
#include "record.h"
#include "wire.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_limits.h"
#include "arb_log.h"
#include "arb_sign.h"
#include "arb_time.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>


/* One match being played: the slot thread's view. */
typedef struct job {
    const worker_options *o;
    const arb_sign_key *sign;  /* the worker's: signs the transcript */
    wire_assign *a;
    int slot;
    const char *pull_ep;
    uint8_t *result;         /* the result frame, when the thread is done */
    size_t result_len;
    char disk_full[512];     /* not "": the transcript could not be written for a full disk (why) */
    char transcript[512];    /* the transcript of a played match ("" none): sent before the result */
    void *push;              /* the thread's own socket to the I/O loop */
    wire_progress_info prog;
} job;

typedef struct wslot {
    bool busy, playing;
    wire_assign *a;
    job *j;
    pthread_t thread;
} wslot;

/* A result sent and not yet acknowledged: sent again at next_ns, each
 * wait twice the last (ARB_RESEND_FIRST_MS .. ARB_RESEND_MAX_MS), until any
 * acknowledgement comes. */
typedef struct pending {
    int64_t id;
    int gen;
    uint8_t *frame;
    size_t len;
    char *transcript;        /* its transcript's file (malloc'ed; NULL none): its chunks go before it */
    uint64_t sent_ns;        /* the last time it went out */
    uint64_t next_ns;        /* when it goes again */
    uint64_t wait_ms;        /* the wait after the next send */
    int sends;
} pending;

typedef struct fetch {
    char digest[65];
    uint64_t sent_ns;
} fetch;

typedef struct worker {
    const worker_options *o;
    arb_sign_key sign;       /* transcript signatures (arb_sign.h) */
    void *sock, *pull;
    /* Over tcp the DEALER lives on a context of its own, terminated as the
     * worker returns: zmq_ctx_term waits (up to the socket's linger) until
     * what it said last — hand-backs, the last heartbeat — is written. The
     * caller's context is never terminated (slot threads of matches
     * handed back may still hold sockets on it), and a daemon's process
     * ending drops what is still queued: a referee stopped with a match in
     * hand and no drain time was counted as having lost it. NULL over
     * inproc, which needs the caller's context. */
    void *own_ctx;
    char pull_ep[64], cache[600];
    int nslots, hb_ms, misses;
    wslot slots[ARB_WORKER_MAX_SLOTS];
    pending pend[ARB_WORKER_MAX_PENDING];
    int npend;
    fetch fetches[ARB_WORKER_MAX_FETCHES];
    int nfetch;
    uint64_t last_heard, next_hb;
    bool registered;
    worker_stats scratch;    /* when the caller keeps no stats */
    worker_stats *st;
    worker_options opts;     /* the caller's, with st: the slot threads read it */
} worker;

static const char *SUB = "worker";

/* ---- The slot thread --------------------------------------------------- */

static void tell_loop(job *j, const uint8_t *frame, size_t len)
{
    zmq_send(j->push, frame, len, 0);
}

static void on_deal_end(void *ctx, const match_deal *d, const void *state)
{
    job *j = ctx;
    j->prog.done++;
    j->prog.decisions += d->decisions;
    atomic_fetch_add(&j->o->stats->decisions, d->decisions);
    uint8_t *frame;
    size_t len;
    if (wire_progress(&j->prog, &frame, &len) == 0) {
        tell_loop(j, frame, len);
        free(frame);
    }
}

static void on_penalty(void *ctx, const match_deal *d, int seat_index, int bot, match_reason r, const char *consequence,
                       const char *detail)
{
    job *j = ctx;
    j->prog.penalties++;
    atomic_fetch_add(&j->o->stats->penalties, 1);
    if (r == MATCH_R_TIMEOUT) {
        j->prog.timeouts++;
        atomic_fetch_add(&j->o->stats->timeouts, 1);
    }
}

/* The transcript of this match: a new file in the worker's own transcript
 * directory, named from the match id and generation (numbers: the wire
 * names no path). Created exclusively and never through a symbolic link,
 * so nothing that exists is opened, truncated or replaced; a name taken
 * already (a record started anew over an old directory) gets a suffix. */
/* A new transcript file of our own for the assignment (path), created
 * empty: the match is then recorded into it. */
static int new_transcript(const worker_options *o, const wire_assign *a, char *path, size_t len, int *cause)
{
    *cause = 0;
    char dir[600];
    if (o->transcript_dir)
        snprintf(dir, sizeof dir, "%s", o->transcript_dir);
    else
        snprintf(dir, sizeof dir, "%s/transcripts", o->workdir);
    mkdir(dir, 0700);
    for (int k = 0; k < 100; k++) {
        char suffix[16] = "";
        if (k)
            snprintf(suffix, sizeof suffix, "-%d", k);
        if ((size_t)snprintf(path, len, "%.500s/m%" PRId64 "-g%d%s.arbt", dir, a->match_id, a->lease_gen, suffix)
            >= len)
            return ARB_ETOOBIG;
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0) {
            *cause = errno;
            return errno == ENOSPC || errno == EDQUOT ? ARB_EDISKFULL : ARB_EIO;
        }
        close(fd);
        /* ours, new and empty, in a directory only we write to: the
         * writer opening it again (O_TRUNC of an empty file) changes nothing */
        return 0;
    }
    return ARB_EIO;
}

/* Play one assignment; the result frame in *out. */
static int play(job *j, uint8_t **out, size_t *len)
{
    const worker_options *o = j->o;
    const wire_assign *a = j->a;
    wire_result w;
    memset(&w, 0, sizeof w);
    w.match_id = a->match_id;
    w.lease_gen = a->lease_gen;
    live_options lo = o->live;
    char dir[600];
    snprintf(dir, sizeof dir, "%s/match-%lld-%d", o->workdir, (long long)a->match_id, a->lease_gen);
    lo.workdir = dir;
    /* Bots see neither this worker's directory (other matches, its
     * transcripts) nor the directory the transcript is written to; of the
     * program cache, only their own program (seat.h). */
    char cache[600];
    snprintf(cache, sizeof cache, "%s/programs", o->workdir);
    lo.programs = cache;
    /* Programs from the cache: nothing else of the host's files is needed
     * but the system's (seat.h). */
    lo.limits.system_view = o->fetch_programs;
    for (int h = 0, added = 0; h < LIVE_MAX_HIDE && added < 2; h++)
        if (!lo.hide[h]) {
            lo.hide[h] = added++ == 0 ? o->workdir : o->transcript_dir;
            if (!lo.hide[h])
                break;
        }
    char err[512];
    live_driver *l = live_new(&lo, err, sizeof err);
    int rc = 0, cause = 0;
    match_observer obs = {.ctx = j, .deal_end = on_deal_end, .penalty = on_penalty};
    if (!l) {
        snprintf(w.error, sizeof w.error, "%s", err);
    } else if ((rc = new_transcript(o, a, w.transcript, sizeof w.transcript, &cause)) != 0) {
        snprintf(w.error, sizeof w.error, "transcript %.300s: %s", w.transcript,
                 cause ? strerror(cause) : arb_strerror(rc));
        w.transcript[0] = 0;
    } else {
        rc = record_match_signed(w.transcript, &a->cfg, live_driver_of(l), &obs, j->sign, &w.res, w.digest,
                                 w.signature);
        w.is_signed = w.digest[0] != 0;
        if (rc)
            snprintf(w.error, sizeof w.error, "%s", w.res.error[0] ? w.res.error : arb_strerror(rc));
        else
            w.ok = true;
        if (w.ok)
            snprintf(j->transcript, sizeof j->transcript, "%s", w.transcript);
        if (!w.digest[0])
            w.transcript[0] = 0;   /* none was written */
    }
    if (rc == ARB_EDISKFULL) {   /* this host's trouble: handed back, not void (on_slot_message) */
        snprintf(j->disk_full, sizeof j->disk_full, "%s", w.error);
        if (w.transcript[0])
            unlink(w.transcript);   /* a part, and the space it holds */
    }
    if (l)
        live_free(l);
    rmdir(dir);
    /* what we say about a failure may quote a bot: made valid text, or the
     * scheduler would refuse the frame and the match would never end */
    wire_clean_text(w.error, ARB_WIRE_MAX_TEXT);
    wire_clean_text(w.transcript, ARB_WIRE_MAX_TEXT);
    for (int b = 0; b < w.res.nbots; b++)
        wire_clean_text(w.res.bots[b].sandbox, sizeof w.res.bots[b].sandbox - 1);
    for (uint32_t i = 0; i < w.res.npenalties; i++)   /* a note quotes the bot's reply */
        wire_clean_text(w.res.penalties[i].note, ARB_MAX_PENALTY_NOTE);
    rc = wire_encode_result(&w, out, len);
    match_result_release(&w.res);
    return rc;
}

static void *slot_main(void *arg)
{
    job *j = arg;
    j->push = zmq_socket(j->o->zmq_ctx, ZMQ_PUSH);
    if (j->push)
        zmq_connect(j->push, j->pull_ep);
    if (play(j, &j->result, &j->result_len) != 0)
        j->result = NULL;
    /* "this slot is done": a message of exactly an int; wire frames are longer */
    if (j->push) {
        zmq_send(j->push, &j->slot, sizeof j->slot, 0);
        zmq_close(j->push);
    }
    return NULL;
}

/* ---- The I/O loop ------------------------------------------------------ */

static int send_copy(worker *w, const uint8_t *frame, size_t len)
{
    return zmq_send(w->sock, frame, len, ZMQ_DONTWAIT) == (int)len ? 0 : ARB_EIO;
}

static int send_owned(worker *w, uint8_t *frame, size_t len)
{
    int rc = send_copy(w, frame, len);
    free(frame);
    return rc;
}

/* The leases this worker holds, as its hello and heartbeats name them:
 * the matches its slots play, and those whose result waits for its
 * acknowledgement (the scheduler could not record it yet: its database
 * full or restarting). Named, a finished match keeps its lease until the
 * result lands; unnamed, the scheduler gave it back to the queue after two
 * heartbeats and the match was played again for nothing. At most
 * ARB_WORKER_MAX_SLOTS (what a heartbeat's decoder takes): the slots
 * first, then the oldest results. */
static int running(const worker *w, wire_lease *out)
{
    int n = 0;
    for (int i = 0; i < w->nslots; i++)
        if (w->slots[i].busy)
            out[n++] = (wire_lease){w->slots[i].a->match_id, w->slots[i].a->lease_gen};
    for (int i = 0; i < w->npend && n < ARB_WORKER_MAX_SLOTS; i++)
        out[n++] = (wire_lease){w->pend[i].id, w->pend[i].gen};
    return n;
}

static int free_slots(const worker *w)
{
    int n = 0;
    for (int i = 0; i < w->nslots; i++)
        n += !w->slots[i].busy;
    return n;
}

static void say_hello(worker *w)
{
    wire_lease run[ARB_WORKER_MAX_SLOTS];
    int n = running(w, run);
    uint8_t *frame;
    size_t len;
    if (wire_hello(w->o->name, w->nslots, run, n, w->sign.pk, &frame, &len) == 0)
        send_owned(w, frame, len);
    /* Results not yet acknowledged go again at their own pace (resend()),
     * never because of a hello: a scheduler that asks for hellos (a
     * restarted one asks on every frame it does not know) would otherwise
     * get every result once per hello. A new connection makes them due. */
    for (int i = 0; i < w->nfetch; i++)
        w->fetches[i].sent_ns = 0;   /* asked again at the next heartbeat */
}

static void *open_socket(worker *w)
{
    const worker_options *o = w->o;
    void *sock = zmq_socket(w->own_ctx ? w->own_ctx : o->zmq_ctx, ZMQ_DEALER);
    if (!sock)
        return NULL;
    /* from the scheduler this worker chose: a WIRE_PROGRAM frame carries a
     * whole bundle (ARB_WIRE_MAX_PROGRAM_FRAME); the scheduler's own socket
     * keeps ARB_WIRE_MAX_FRAME for what workers send */
    int64_t max = ARB_WIRE_MAX_PROGRAM_FRAME;
    int linger = 0, hwm = 10000;
    zmq_setsockopt(sock, ZMQ_MAXMSGSIZE, &max, sizeof max);
    zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_setsockopt(sock, ZMQ_SNDHWM, &hwm, sizeof hwm);
    /* Reconnections back off (0.5 s doubling to 5 s): each is a CURVE
     * handshake, and the scheduler admits ARB_ZAP_HANDSHAKES_PER_MIN per
     * key; a worker retrying every 100 ms would lock its own key out. */
    int ivl = 500, ivl_max = 5000;
    zmq_setsockopt(sock, ZMQ_RECONNECT_IVL, &ivl, sizeof ivl);
    zmq_setsockopt(sock, ZMQ_RECONNECT_IVL_MAX, &ivl_max, sizeof ivl_max);
    /* Over inproc the name is the route (only this process connects);
     * over CURVE a route nobody can guess, new per connection: the
     * scheduler knows us by our key, not by this. */
    if (o->server_key) {
        uint8_t rid[WIRE_ROUTING_ID_BYTES];
        randombytes_buf(rid, sizeof rid);
        rid[0] |= 0x80;   /* a first byte of zero is libzmq's own */
        zmq_setsockopt(sock, ZMQ_ROUTING_ID, rid, sizeof rid);
    } else {
        zmq_setsockopt(sock, ZMQ_ROUTING_ID, o->name, strlen(o->name));
    }
    if ((o->server_key && (zmq_setsockopt(sock, ZMQ_CURVE_SERVERKEY, o->server_key, 40) != 0
                           || zmq_setsockopt(sock, ZMQ_CURVE_PUBLICKEY, o->public_key, 40) != 0
                           || zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, o->secret_key, 40) != 0))
        || zmq_connect(sock, o->endpoint) != 0) {
        zmq_close(sock);
        return NULL;
    }
    return sock;
}

/* The scheduler is silent: a new connection, and say everything again. */
static void reconnect(worker *w)
{
    arb_warn(SUB, "%s: no word from the scheduler at %s for %d ms: reconnecting", w->o->name, w->o->endpoint,
             w->hb_ms * w->misses);
    void *s = open_socket(w);
    if (!s)
        return;
    zmq_close(w->sock);
    w->sock = s;
    w->registered = false;
    atomic_store(&w->st->connected, 0);
    atomic_fetch_add(&w->st->reconnects, 1);
    /* what went out on the old connection may be lost with it */
    uint64_t now = arb_now_ns();
    for (int i = 0; i < w->npend; i++)
        w->pend[i].next_ns = now;
    say_hello(w);
}

static void hand_back(worker *w, int i, const char *why)
{
    wslot *s = &w->slots[i];
    uint8_t *frame;
    size_t len;
    if (wire_release(s->a->match_id, s->a->lease_gen, why, &frame, &len) == 0)
        send_owned(w, frame, len);
    atomic_fetch_add(&w->st->released, 1);
    arb_info(SUB, "%s: match %" PRId64 " handed back: %s", w->o->name, s->a->match_id, why);
}

/* The disk under the program cache or the transcripts is full: the
 * match of slot i is handed back (a worker with room plays it; a void
 * result would lose it for good), and the owner told (worker_options). */
static void on_disk_full(worker *w, int i, const char *why)
{
    arb_error(SUB, "%s: match %" PRId64 " cannot be played here, the disk is full: %s", w->o->name,
              w->slots[i].a->match_id, why);
    hand_back(w, i, why);
    if (w->o->disk_full)
        w->o->disk_full(w->o->disk_full_ctx, why);
}

static void free_slot(worker *w, int i)
{
    wslot *s = &w->slots[i];
    free(s->a);
    free(s->j);
    *s = (wslot){0};
    atomic_store(&w->st->running, w->nslots - free_slots(w));
}

/* The chunks of a transcript (WIRE_TRANSCRIPT), read from its file, then
 * the result frame: the scheduler checks the one against the other. 0, or
 * ARB_EIO when a frame could not be queued (everything goes again at the
 * next resend), or ARB_ENOTFOUND when the file cannot be read any more. */
static int send_result(worker *w, const pending *p)
{
    if (p->transcript) {
        FILE *f = fopen(p->transcript, "rb");
        struct stat st;
        if (!f || fstat(fileno(f), &st) != 0 || st.st_size <= 0 || (uint64_t)st.st_size > ARB_MAX_TRANSCRIPT) {
            if (f)
                fclose(f);
            return ARB_ENOTFOUND;
        }
        uint8_t *buf = malloc(ARB_WIRE_TRANSCRIPT_CHUNK);
        wire_chunk c = {.match_id = p->id, .gen = p->gen, .total = (uint64_t)st.st_size, .bytes = buf};
        int rc = buf ? 0 : ARB_ENOMEM;
        while (rc == 0 && c.offset < c.total) {
            size_t want = c.total - c.offset > ARB_WIRE_TRANSCRIPT_CHUNK ? ARB_WIRE_TRANSCRIPT_CHUNK
                                                                          : (size_t)(c.total - c.offset);
            c.n = fread(buf, 1, want, f);
            uint8_t *frame;
            size_t len;
            if (c.n != want)
                rc = ARB_ENOTFOUND;   /* shorter than it was: not the transcript we signed */
            else if ((rc = wire_transcript_chunk(&c, &frame, &len)) == 0)
                rc = send_owned(w, frame, len);
            c.offset += c.n;
        }
        free(buf);
        fclose(f);
        if (rc)
            return rc;
    }
    return send_copy(w, p->frame, p->len);
}

/* A result acknowledged (or dropped): forgotten, and its transcript file
 * with it unless the referee keeps transcripts (--keep-transcripts). */
static void forget_result(worker *w, pending *p)
{
    if (p->transcript && !w->o->keep_transcripts && unlink(p->transcript) != 0 && errno != ENOENT)
        arb_warn(SUB, "%s: transcript %s acknowledged; cannot remove it: %s", w->o->name, p->transcript,
                 strerror(errno));
    free(p->transcript);
    free(p->frame);
}

/* A result whose transcript cannot be read any more (removed under us):
 * it cannot be proven, so the match is handed back to be played again. */
static void lost_transcript(worker *w, int i)
{
    pending *p = &w->pend[i];
    arb_error(SUB, "%s: match %" PRId64 ": transcript %s cannot be read: handing the match back", w->o->name, p->id,
              p->transcript);
    uint8_t *frame;
    size_t len;
    if (wire_release(p->id, p->gen, "its transcript was lost on the referee", &frame, &len) == 0)
        send_owned(w, frame, len);
    atomic_fetch_add(&w->st->released, 1);
    free(p->transcript);
    free(p->frame);
    w->pend[i] = w->pend[--w->npend];
    atomic_store(&w->st->unacked, w->npend);
}

static void keep_result(worker *w, int64_t id, int gen, uint8_t *frame, size_t len, const char *transcript)
{
    if (w->npend == ARB_WORKER_MAX_PENDING) {   /* the oldest is dropped: its match is played again */
        forget_result(w, &w->pend[0]);
        memmove(w->pend, w->pend + 1, sizeof w->pend[0] * (ARB_WORKER_MAX_PENDING - 1));
        w->npend--;
    }
    uint64_t now = arb_now_ns();
    w->pend[w->npend++] = (pending){.id = id, .gen = gen, .frame = frame, .len = len,
                                    .transcript = transcript && transcript[0] ? strdup(transcript) : NULL,
                                    .sent_ns = now, .next_ns = now + (uint64_t)ARB_RESEND_FIRST_MS * 1000000u,
                                    .wait_ms = 2 * ARB_RESEND_FIRST_MS, .sends = 1};
    atomic_store(&w->st->unacked, w->npend);
    if (send_result(w, &w->pend[w->npend - 1]) == ARB_ENOTFOUND)
        lost_transcript(w, w->npend - 1);
}

/* Results whose time has come go again, each then waiting twice as long
 * (capped): an unacknowledged result reaches a scheduler that comes back,
 * without a storm. */
static void resend(worker *w, uint64_t now)
{
    for (int i = 0; i < w->npend; i++) {
        pending *p = &w->pend[i];
        if (now < p->next_ns)
            continue;
        if (send_result(w, p) == ARB_ENOTFOUND) {
            lost_transcript(w, i--);
            continue;
        }
        p->sent_ns = now;
        p->sends++;
        p->next_ns = now + p->wait_ms * 1000000u;
        p->wait_ms = p->wait_ms * 2 > ARB_RESEND_MAX_MS ? ARB_RESEND_MAX_MS : p->wait_ms * 2;
    }
}

/* A match that cannot be played here for a reason that holds everywhere
 * (the scheduler has no such program): a failed result, so it is void. */
static void fail_match(worker *w, int i, const char *why)
{
    wire_result *r = calloc(1, sizeof *r);
    uint8_t *frame;
    size_t len;
    if (!r)
        return;
    r->match_id = w->slots[i].a->match_id;
    r->lease_gen = w->slots[i].a->lease_gen;
    snprintf(r->error, sizeof r->error, "%s", why);
    if (wire_encode_result(r, &frame, &len) == 0)
        keep_result(w, r->match_id, r->lease_gen, frame, len, NULL);
    free(r);
    atomic_fetch_add(&w->st->matches_failed, 1);
    free_slot(w, i);
}

/* Start the match of slot i when every program it needs is at hand. */
static void try_start(worker *w, int i)
{
    wslot *s = &w->slots[i];
    wire_assign *a = s->a;
    if (w->o->fetch_programs) {
        int missing = 0;
        for (int p = 0; p < a->nprograms; p++) {
            if (bundle_cached(w->cache, a->programs[p].digest))
                continue;
            missing++;
            bool asked = false;
            for (int f = 0; f < w->nfetch; f++)
                asked |= strcmp(w->fetches[f].digest, a->programs[p].digest) == 0;
            if (!asked && w->nfetch < ARB_WORKER_MAX_FETCHES) {
                fetch *f = &w->fetches[w->nfetch++];
                snprintf(f->digest, sizeof f->digest, "%s", a->programs[p].digest);
                uint8_t *frame;
                size_t len;
                if (wire_fetch(f->digest, &frame, &len) == 0)
                    send_owned(w, frame, len);
                f->sent_ns = arb_now_ns();
                arb_info(SUB, "%s: fetching program %.12s", w->o->name, f->digest);
            }
        }
        if (missing)
            return;   /* parked until WIRE_PROGRAM */
        for (int p = 0; p < a->nprograms; p++) {
            const wire_program *pr = &a->programs[p];
            char *arg = a->cfg.bots[pr->bot].argv[pr->argi];
            size_t cap = sizeof a->cfg.bots[pr->bot].argv[pr->argi];
            if ((size_t)snprintf(arg, cap, "%s/%s/%s", w->cache, pr->digest, pr->path) >= cap) {
                fail_match(w, i, "program path too long in the cache");
                return;
            }
        }
    }
    job *j = calloc(1, sizeof *j);
    if (!j) {
        hand_back(w, i, "out of memory");
        free_slot(w, i);
        return;
    }
    *j = (job){.o = w->o, .sign = &w->sign, .a = a, .slot = i, .pull_ep = w->pull_ep};
    j->prog = (wire_progress_info){.match_id = a->match_id, .gen = a->lease_gen, .games = match_games(&a->cfg)};
    s->j = j;
    if (pthread_create(&s->thread, NULL, slot_main, j) != 0) {
        hand_back(w, i, "cannot start a thread");
        free_slot(w, i);
        return;
    }
    s->playing = true;
    atomic_store(&w->st->running, w->nslots - free_slots(w));
}

static void on_assign(worker *w, const uint8_t *data, size_t n, bool draining)
{
    wire_assign *a = malloc(sizeof *a);
    if (!a || wire_decode_assign(data, n, a) != 0) {
        free(a);
        atomic_fetch_add(&w->st->frames_dropped, 1);
        return;
    }
    for (int i = 0; i < w->nslots; i++)
        if (w->slots[i].busy && w->slots[i].a->match_id == a->match_id && w->slots[i].a->lease_gen == a->lease_gen) {
            free(a);   /* the same assignment again: already in hand */
            return;
        }
    int i = 0;
    while (i < w->nslots && w->slots[i].busy)
        i++;
    if (draining || i == w->nslots) {
        uint8_t *frame;
        size_t len;
        if (wire_release(a->match_id, a->lease_gen, draining ? "draining" : "no free slot", &frame, &len) == 0)
            send_owned(w, frame, len);
        atomic_fetch_add(&w->st->released, 1);
        free(a);
        return;
    }
    w->slots[i] = (wslot){.busy = true, .a = a};
    arb_debug(SUB, "%s: match %" PRId64 " generation %d in slot %d", w->o->name, a->match_id, a->lease_gen, i);
    try_start(w, i);
}

static void on_program(worker *w, const uint8_t *data, size_t n)
{
    char digest[65], error[256], err[512];
    const uint8_t *bundle;
    size_t blen;
    if (wire_decode_program(data, n, digest, &bundle, &blen, error, sizeof error) != 0) {
        atomic_fetch_add(&w->st->frames_dropped, 1);
        return;
    }
    int f = 0;
    while (f < w->nfetch && strcmp(w->fetches[f].digest, digest) != 0)
        f++;
    if (f == w->nfetch)
        return;   /* not asked for (or answered already) */
    w->fetches[f] = w->fetches[--w->nfetch];
    int rc = 0;
    if (!bundle) {
        snprintf(err, sizeof err, "program %.12s: the scheduler has none: %s", digest, error);
        rc = ARB_ENOTFOUND;
    } else {
        rc = bundle_unpack(bundle, blen, digest, w->cache, err, sizeof err);
        if (rc == 0) {
            atomic_fetch_add(&w->st->programs_fetched, 1);
            arb_info(SUB, "%s: program %.12s cached (%zu bytes)", w->o->name, digest, blen);
        }
    }
    for (int i = 0; i < w->nslots; i++) {
        wslot *s = &w->slots[i];
        if (!s->busy || s->playing)
            continue;
        bool needs = false;
        for (int p = 0; p < s->a->nprograms; p++)
            needs |= strcmp(s->a->programs[p].digest, digest) == 0;
        if (!needs)
            continue;
        if (rc == ARB_ENOTFOUND) {
            fail_match(w, i, err);
        } else if (rc == ARB_EDISKFULL) {
            on_disk_full(w, i, err);
            free_slot(w, i);
        } else if (rc) {
            arb_error(SUB, "%s: %s", w->o->name, err);   /* this host's trouble: someone else may play it */
            hand_back(w, i, err);
            free_slot(w, i);
        } else {
            try_start(w, i);
        }
    }
}

static void on_slot_message(worker *w, zmq_msg_t *msg)
{
    size_t n = zmq_msg_size(msg);
    const uint8_t *data = zmq_msg_data(msg);
    if (n != sizeof(int)) {
        send_copy(w, data, n);   /* progress: forwarded as it is */
        return;
    }
    int i;
    memcpy(&i, data, sizeof i);
    if (i < 0 || i >= w->nslots || !w->slots[i].playing)
        return;
    wslot *s = &w->slots[i];
    pthread_join(s->thread, NULL);
    job *j = s->j;
    if (j->disk_full[0]) {
        free(j->result);
        on_disk_full(w, i, j->disk_full);
    } else if (j->result) {
        keep_result(w, s->a->match_id, s->a->lease_gen, j->result, j->result_len, j->transcript);
        atomic_fetch_add(&w->st->matches_done, 1);
    } else {
        hand_back(w, i, "the result could not be encoded");
    }
    free_slot(w, i);
}

static void on_ack(worker *w, const uint8_t *data, size_t n)
{
    int64_t id;
    int gen;
    if (wire_decode_ack(data, n, &id, &gen) != 0) {
        atomic_fetch_add(&w->st->frames_dropped, 1);
        return;
    }
    for (int i = 0; i < w->npend; i++)
        if (w->pend[i].id == id && w->pend[i].gen == gen) {
            forget_result(w, &w->pend[i]);
            w->pend[i] = w->pend[--w->npend];
            break;
        }
    atomic_store(&w->st->unacked, w->npend);
}

/* A worker from its options: slots, heartbeat, program cache, the
 * transcript-signing key. NULL with *rc set (the reason logged). */
static worker *worker_new(const worker_options *o, int *rc)
{
    worker *w = calloc(1, sizeof *w);
    if (!w) {
        *rc = ARB_ENOMEM;
        return NULL;
    }
    w->st = o->stats ? o->stats : &w->scratch;
    w->opts = *o;   /* the slot threads count into the same stats */
    w->opts.stats = w->st;
    w->o = &w->opts;
    w->nslots = o->slots < 1 ? 1 : o->slots > ARB_WORKER_MAX_SLOTS ? ARB_WORKER_MAX_SLOTS : o->slots;
    w->hb_ms = o->heartbeat_ms > 0 ? o->heartbeat_ms : 1000;
    w->misses = o->heartbeat_misses > 0 ? o->heartbeat_misses : 5;
    snprintf(w->cache, sizeof w->cache, "%s/programs", o->workdir);
    /* The transcript-signing key: a daemon's follows from its CURVE secret
     * (one public key to publish for the life of that key); the local
     * worker of `arbiter run` has a fresh one, recorded with every match. */
    uint8_t curve_secret[32];
    int krc = o->secret_key && zmq_z85_decode(curve_secret, o->secret_key)
                  ? arb_sign_from_secret(curve_secret, &w->sign) : arb_sign_random(&w->sign);
    sodium_memzero(curve_secret, sizeof curve_secret);
    if (krc) {
        arb_error(SUB, "%s: no signing key: %s", o->name, arb_strerror(krc));
        free(w);
        *rc = krc;
        return NULL;
    }
    char signer[65];
    arb_key_hex(w->sign.pk, signer);
    arb_info(SUB, "%s: signs transcripts with ed25519 key %s", o->name, signer);
    /* 0711: a bot (under a uid of its own, or outside bubblewrap) may pass
     * through to its own program, named by a digest it cannot guess, but
     * cannot list the cache to find another entrant's. */
    if (o->fetch_programs && (mkdir(w->cache, 0711) == 0 || errno == EEXIST))
        chmod(w->cache, 0711);
    atomic_store(&w->st->slots, w->nslots);
    snprintf(w->pull_ep, sizeof w->pull_ep, "inproc://arbiter-worker-%p", (void *)w);
    return w;
}

/* The ZeroMQ context (for an endpoint not inproc), the slots' pull socket
 * and the socket to the scheduler. 0, or an error (logged). */
static int worker_connect(worker *w)
{
    const worker_options *o = w->o;
    if (strncmp(o->endpoint, "inproc://", 9) != 0 && !(w->own_ctx = zmq_ctx_new())) {
        arb_error(SUB, "%s: cannot make a ZeroMQ context: %s", o->name, zmq_strerror(errno));
        return ARB_ENOMEM;
    }
    w->pull = zmq_socket(o->zmq_ctx, ZMQ_PULL);
    if (!w->pull || zmq_bind(w->pull, w->pull_ep) != 0 || !(w->sock = open_socket(w))) {
        arb_error(SUB, "%s: cannot connect to %s: %s", o->name, o->endpoint, zmq_strerror(errno));
        return ARB_EIO;
    }
    return 0;
}

/* A worker's drain: asked by o->stop (SIGTERM) or the scheduler's STOP. */
typedef struct worker_drain {
    bool     draining;
    uint64_t deadline;           /* monotonic ns: matches still in hand are handed back then */
    uint64_t drained_at;         /* when nothing was left in hand (0: something is) */
} worker_drain;

/* Whether the loop ends now: stopped at once (o->stop_now: every match
 * handed back), or drained (nothing in hand for two heartbeats, or the
 * drain time up). Starts the drain when o->stop asks. */
static bool worker_done(worker *w, worker_drain *d, uint64_t now, uint64_t hb_ns)
{
    const worker_options *o = w->o;
    if (o->stop_now && __atomic_load_n(o->stop_now, __ATOMIC_RELAXED)) {
        for (int i = 0; i < w->nslots; i++)
            if (w->slots[i].busy)
                hand_back(w, i, "the referee is stopping");
        return true;
    }
    if (o->stop && __atomic_load_n(o->stop, __ATOMIC_RELAXED) && !d->draining) {
        d->draining = true;
        d->deadline = now + (uint64_t)(o->drain_s > 0 ? o->drain_s : 0) * 1000000000u;
        arb_info(SUB, "%s: draining: %d matches in hand, %d results unacknowledged", o->name,
                 w->nslots - free_slots(w), w->npend);
        w->next_hb = now;   /* "0 free" at once: the scheduler stops giving us matches */
    }
    if (!d->draining)
        return false;
    /* Done, but a match the scheduler assigned before it read our "0 free"
     * may still be on its way: two heartbeats more to hand it back, or it
     * would be lost with us (docs/operations.md). */
    if (free_slots(w) == w->nslots && w->npend == 0) {
        if (!d->drained_at)
            d->drained_at = now;
        if (now - d->drained_at >= 2 * hb_ns)
            return true;
    } else {
        d->drained_at = 0;
    }
    if (now >= d->deadline) {
        for (int i = 0; i < w->nslots; i++)
            if (w->slots[i].busy)
                hand_back(w, i, "drain time is up");
        return true;
    }
    return false;
}

/* Every frame waiting from the scheduler, handled. 0, or
 * ARB_EUNSUPPORTED when it refused us (another protocol version). */
static int on_scheduler_frames(worker *w, worker_drain *d)
{
    const worker_options *o = w->o;
    zmq_msg_t msg;
    zmq_msg_init(&msg);
    bool refused = false;
    while (!refused && zmq_msg_recv(&msg, w->sock, ZMQ_DONTWAIT) >= 0) {
        size_t n = zmq_msg_size(&msg);
        const uint8_t *data = zmq_msg_data(&msg);
        w->last_heard = arb_now_ns();
        atomic_store(&w->st->connected, 1);
        int kind = wire_kind_of(data, n), v, hb;
        char reason[256];
        switch (kind) {
        case WIRE_WELCOME:
            if (wire_decode_welcome(data, n, &v, &hb) == 0 && !w->registered) {
                w->registered = true;
                arb_info(SUB, "%s: admitted by %s with %d slots", o->name, o->endpoint, w->nslots);
            }
            break;
        case WIRE_REHELLO:
            say_hello(w);
            break;
        case WIRE_REFUSE:
            if (wire_decode_refuse(data, n, &v, reason, sizeof reason) == 0) {
                arb_error(SUB, "%s: refused by the scheduler (it speaks version %d, we %d): %s", o->name, v,
                          WIRE_VERSION, reason);
                refused = true;
            }
            break;
        case WIRE_HEARTBEAT:
            break;
        case WIRE_ACK:
            on_ack(w, data, n);
            break;
        case WIRE_STOP:
            if (!d->draining) {
                d->draining = true;
                d->deadline = arb_now_ns() + 3600ull * 1000000000u;
            }
            break;
        case WIRE_ASSIGN:
            on_assign(w, data, n, d->draining);
            break;
        case WIRE_PROGRAM:
            on_program(w, data, n);
            break;
        default:   /* malformed or not for a worker: dropped, never fatal */
            atomic_fetch_add(&w->st->frames_dropped, 1);
        }
    }
    zmq_msg_close(&msg);
    return refused ? ARB_EUNSUPPORTED : 0;
}

/* The heartbeat (free slots, matches running) and the program fetches not
 * answered for a while, sent again. */
static void send_heartbeat(worker *w, uint64_t now, bool draining, uint64_t hb_ns)
{
    wire_lease run[ARB_WORKER_MAX_SLOTS];
    int nr = running(w, run);
    uint8_t *frame;
    size_t len;
    if (wire_heartbeat(draining ? 0 : free_slots(w), run, nr, &frame, &len) == 0)
        send_owned(w, frame, len);
    for (int f = 0; f < w->nfetch; f++)
        if (now - w->fetches[f].sent_ns > hb_ns * (uint64_t)w->misses
            && wire_fetch(w->fetches[f].digest, &frame, &len) == 0) {
            send_owned(w, frame, len);
            w->fetches[f].sent_ns = now;
        }
    w->next_hb = now + hb_ns;
}

/* Close the sockets and free the worker, unless a match still plays on a
 * slot thread (stopped, or handed back): those threads are left to the
 * process's end, and the worker with them. */
static void worker_close(worker *w)
{
    if (w->sock) {
        int linger = 2000;   /* hand-backs and the last heartbeat get out */
        zmq_setsockopt(w->sock, ZMQ_LINGER, &linger, sizeof linger);
        zmq_close(w->sock);
    }
    if (w->own_ctx)
        zmq_ctx_term(w->own_ctx);   /* the frames above written, or the linger over */
    /* Matches still playing (stopped, or handed back): their threads are
     * left to the process's end; waiting would hold a stop for a match. */
    bool detached = false;
    for (int i = 0; i < w->nslots; i++)
        if (w->slots[i].playing) {
            pthread_detach(w->slots[i].thread);
            detached = true;
        } else if (w->slots[i].busy) {
            free_slot(w, i);
        }
    for (int i = 0; i < w->npend; i++) {   /* not acknowledged: the files stay for the next run */
        free(w->pend[i].transcript);
        free(w->pend[i].frame);
    }
    if (w->pull)
        zmq_close(w->pull);
    atomic_store(&w->st->connected, 0);
    atomic_store(&w->st->running, 0);
    if (!detached) {
        arb_sign_wipe(&w->sign);
        free(w);
    }   /* else the threads still read their jobs and the options copy */
}

int worker_run(const worker_options *o)
{
    if (!o->name || !wire_valid_name(o->name)) {
        /* the scheduler would drop every hello: say so here, once */
        arb_error(SUB, "worker name \"%.64s\": 1..%d of [A-Za-z0-9] and _.:-+=^!?&<>()[]{}@%%$# expected",
                  o->name ? o->name : "", ARB_WORKER_ID_MAX);
        return ARB_EINVAL;
    }
    int rc = 0;
    worker *w = worker_new(o, &rc);
    if (!w)
        return rc;
    rc = worker_connect(w);
    if (rc)
        goto out;
    say_hello(w);
    uint64_t now = arb_now_ns(), hb_ns = (uint64_t)w->hb_ms * 1000000u;
    w->last_heard = now;
    w->next_hb = now + hb_ns;
    worker_drain d = {0};
    for (;;) {
        now = arb_now_ns();
        if (worker_done(w, &d, now, hb_ns))
            break;
        zmq_pollitem_t items[2] = {{w->sock, 0, ZMQ_POLLIN, 0}, {w->pull, 0, ZMQ_POLLIN, 0}};
        long wait = w->next_hb > now ? (long)((w->next_hb - now) / 1000000u) : 0;
        zmq_poll(items, 2, wait > 100 ? 100 : wait);
        if (items[1].revents & ZMQ_POLLIN) {
            zmq_msg_t msg;
            zmq_msg_init(&msg);
            while (zmq_msg_recv(&msg, w->pull, ZMQ_DONTWAIT) >= 0)
                on_slot_message(w, &msg);
            zmq_msg_close(&msg);
        }
        if (items[0].revents & ZMQ_POLLIN) {
            rc = on_scheduler_frames(w, &d);
            if (rc)
                break;
        }
        now = arb_now_ns();
        resend(w, now);
        if (now >= w->next_hb)
            send_heartbeat(w, now, d.draining, hb_ns);
        if (now - w->last_heard > hb_ns * (uint64_t)w->misses) {
            reconnect(w);
            w->last_heard = now;   /* the next try after another silence */
        }
    }
out:
    worker_close(w);
    return rc;
}
