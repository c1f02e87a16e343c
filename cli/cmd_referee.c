/* cmd_referee.c — `arbiter-referee` (also `arbiter referee`): the referee
 * worker daemon of a distributed deployment. It plays the matches a
 * scheduler gives it, reads a commented YAML file (config/referee.yaml)
 * and the same keys as flags, logs JSON lines on stderr and serves
 * Prometheus metrics (daemon.c). It links the referee, never the record
 * or the web: the process that runs untrusted bots carries neither libpq
 * nor libmicrohttpd. */
#include "cli_base.h"
#include "daemon.h"
#include "live.h"
#include "worker.h"
#include "arb_conf.h"
#include "arb_error.h"
#include "arb_file.h"
#include "arb_http.h"
#include "arb_log.h"

#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

typedef struct ref_conf {
    char connect[256], server_key[512], key[512], name[ARB_WORKER_ID_MAX + 1], workdir[512], metrics[128];
    int slots, heartbeat_ms, heartbeat_misses, drain_s;
    int log_level, log_format, sandbox;
    bool check, allow_unsandboxed, keep_transcripts;
} ref_conf;

#define R(f) offsetof(ref_conf, f), sizeof(((ref_conf *)0)->f)
static const arb_conf_key ref_keys[] = {
    {"connect", ARB_CONF_STR, R(connect), 0, 0, NULL, "the scheduler's endpoint (tcp://HOST:PORT)"},
    {"server_key", ARB_CONF_STR, R(server_key), 0, 0, NULL, "the scheduler's public key file (NAME.pub)"},
    {"key", ARB_CONF_STR, R(key), 0, 0, NULL, "this worker's key pair NAME (NAME.key, NAME.pub)"},
    {"name", ARB_CONF_STR, R(name), 0, 0, NULL, "this worker's name in the pool (empty: HOST-PID)"},
    {"slots", ARB_CONF_INT, R(slots), 0, 256, NULL, "matches at once (0: the number of cores)"},
    {"workdir", ARB_CONF_STR, R(workdir), 0, 0, NULL, "bot directories, the program cache, transcripts"},
    {"heartbeat_ms", ARB_CONF_INT, R(heartbeat_ms), 100, 60000, NULL, "heartbeat period"},
    {"heartbeat_misses", ARB_CONF_INT, R(heartbeat_misses), 2, 100, NULL, "silent heartbeats before reconnecting"},
    {"keep_transcripts", ARB_CONF_BOOL, R(keep_transcripts), 0, 0, NULL,
     "keep each transcript under workdir after the scheduler recorded it (default: removed then)"},
    {"drain_s", ARB_CONF_INT, R(drain_s), 0, 86400, NULL, "on SIGTERM, finish matches for at most this long"},
    {"metrics", ARB_CONF_STR, R(metrics), 0, 0, NULL, "Prometheus endpoint HOST:PORT (empty: off)"},
    {"log_level", ARB_CONF_ENUM, R(log_level), 0, 0, log_levels, "debug, info, warn or error"},
    {"log_format", ARB_CONF_ENUM, R(log_format), 0, 0, log_formats, "json or text"},
    {"sandbox", ARB_CONF_ENUM, R(sandbox), 0, 0, sandboxes, "auto, bwrap or none"},
    {"allow_unsandboxed", ARB_CONF_BOOL, R(allow_unsandboxed), 0, 0, NULL,
     "play with neither bubblewrap nor root, or sandbox none (bots then reach your files)"},
    {"check", ARB_CONF_BOOL, R(check), 0, 0, NULL, "check the configuration and exit"},
    {NULL, 0, 0, 0, 0, 0, NULL, NULL},
};
#undef R

static size_t referee_metrics(void *ctx, char *buf, size_t cap)
{
    worker_stats *w = ctx;
    size_t off = 0;
    arb_prom(buf, cap, &off, "arbiter_referee_slots", "gauge", "Match slots of this referee", atomic_load(&w->slots));
    arb_prom(buf, cap, &off, "arbiter_referee_matches_running", "gauge", "Matches in hand",
             atomic_load(&w->running));
    arb_prom(buf, cap, &off, "arbiter_referee_connected", "gauge", "1 when the scheduler was heard lately",
             atomic_load(&w->connected));
    arb_prom(buf, cap, &off, "arbiter_referee_results_unacked", "gauge", "Results kept until acknowledged",
             atomic_load(&w->unacked));
    arb_prom(buf, cap, &off, "arbiter_referee_matches_done_total", "counter", "Matches played to the end",
             (double)atomic_load(&w->matches_done));
    arb_prom(buf, cap, &off, "arbiter_referee_matches_failed_total", "counter", "Matches that could not be played",
             (double)atomic_load(&w->matches_failed));
    arb_prom(buf, cap, &off, "arbiter_referee_leases_released_total", "counter", "Matches handed back unplayed",
             (double)atomic_load(&w->released));
    arb_prom(buf, cap, &off, "arbiter_referee_reconnects_total", "counter", "Connections made anew",
             (double)atomic_load(&w->reconnects));
    arb_prom(buf, cap, &off, "arbiter_referee_programs_fetched_total", "counter", "Bot programs fetched",
             (double)atomic_load(&w->programs_fetched));
    arb_prom(buf, cap, &off, "arbiter_referee_frames_dropped_total", "counter", "Malformed frames dropped",
             (double)atomic_load(&w->frames_dropped));
    arb_prom(buf, cap, &off, "arbiter_bot_timeouts_total", "counter", "Bot decisions that ran out of time",
             (double)atomic_load(&w->timeouts));
    arb_prom(buf, cap, &off, "arbiter_bot_penalties_total", "counter", "Penalties given to bots",
             (double)atomic_load(&w->penalties));
    arb_prom(buf, cap, &off, "arbiter_decisions_total", "counter", "Bot decisions judged",
             (double)atomic_load(&w->decisions));
    return off;
}

int cmd_referee(int argc, char **argv)
{
    ref_conf c = {.workdir = "/var/lib/arbiter-referee", .metrics = "127.0.0.1:9465", .heartbeat_ms = 1000,
                  .heartbeat_misses = 5, .drain_s = 600, .log_level = 1};
    if (asks_help(argc, argv)) {   /* before the arguments are read, as for the scheduler */
        printf("usage: arbiter-referee [--config FILE] [--KEY VALUE ...]\n\n"
               "A referee worker: connects to a scheduler (arbiter-scheduler, or arbiter run\n"
               "--listen), plays up to SLOTS matches at once in sandboxes, fetches bot\n"
               "programs it lacks from the scheduler, and keeps every result and its\n"
               "transcript until the scheduler acknowledges it (the record then holds the\n"
               "transcript; keep_transcripts keeps the file too). SIGTERM drains\n"
               "(finishes the matches in hand for at most drain_s, hands back the rest); a\n"
               "second SIGTERM hands back at once. Keys (config/referee.yaml; flags override the file):\n\n");
        arb_conf_usage(stdout, ref_keys, &c);
        return CLI_EXIT_OK;
    }
    char err[2048];
    int rest[8], nrest = 0;
    if (arb_conf_args(ref_keys, &c, argc - 1, argv + 1, rest, 8, &nrest, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter-referee: %s\n", err);
        return 2;
    }
    for (int i = 0; i < nrest; i++) {
        const char *a = argv[1 + rest[i]];
        unexpected("arbiter-referee", a, ref_keys);
        return CLI_EXIT_USAGE;
    }
    char pub[41], sec[41], spub[41];
    if (!c.connect[0]) {
        fprintf(stderr, "arbiter-referee: connect: the scheduler's endpoint is needed (tcp://HOST:PORT)\n");
        return 2;
    }
    if (key_pair(c.key, pub, sec, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter-referee: %s\n", err);
        return 2;
    }
    if (cli_read_key(c.server_key, spub) != 0) {
        fprintf(stderr, "arbiter-referee: server_key \"%s\": not a public key file\n", c.server_key);
        return 2;
    }
    char host[64] = "host";
    gethostname(host, sizeof host - 1);
    host[strcspn(host, ".")] = 0;
    if (!c.name[0])
        snprintf(c.name, sizeof c.name, "%.60s-%d", host, (int)getpid());
    if (c.slots == 0)
        c.slots = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (c.check) {
        printf("arbiter-referee: configuration ok (%s, %d slots, as %s)\n", c.connect, c.slots, c.name);
        return 0;
    }
    arb_log_setup((arb_log_level)c.log_level, (arb_log_format)c.log_format);
    /* bots under uids of their own (as root) pass through to their
     * working directories; nothing else of it is theirs */
    if (arb_make_dir(c.workdir, geteuid() == 0 ? 0711 : 0700, "workdir (workdir:, --workdir)", err, sizeof err) != 0) {
        arb_error("referee", "%s", err);
        return 2;
    }
    char abs_work[512];
    if (!realpath(c.workdir, abs_work))
        snprintf(abs_work, sizeof abs_work, "%s", c.workdir);
    catch_signals();
    static worker_stats stats;
    arb_http *http = NULL;
    if (c.metrics[0] && !(http = start_metrics("referee", c.metrics, referee_metrics, &stats))) {
        return 2;
    }
    void *ctx = zmq_ctx_new();
    worker_options o = {.zmq_ctx = ctx, .endpoint = c.connect, .name = c.name, .workdir = abs_work,
                        .slots = c.slots, .heartbeat_ms = c.heartbeat_ms, .heartbeat_misses = c.heartbeat_misses,
                        .drain_s = c.drain_s, .fetch_programs = true, .keep_transcripts = c.keep_transcripts,
                        .stop = &stopping, .stop_now = &stop_now,
                        .public_key = pub, .secret_key = sec, .server_key = spub, .stats = &stats};
    /* This referee's secret key, wherever it lies (under /etc, which a
     * bot's system view shows): hidden from bots, who could otherwise speak
     * for this worker when the referee is not root. */
    char key_file[1100], abs_key[4096];
    snprintf(key_file, sizeof key_file, "%s.key", c.key);
    if (realpath(key_file, abs_key))
        o.live.hide[0] = abs_key;
    if (live_choose_sandbox(&o.live, sandbox_of(c.sandbox), c.allow_unsandboxed, "allow_unsandboxed: true", err,
                      sizeof err) != 0) {
        arb_error("referee", "%s", err);
        return 2;
    }
    if (o.live.require == 0)
        arb_warn("referee", "allow_unsandboxed: bots run with rlimits only: they can read this host's files, "
                 "signal the referee and each other, and reach the network");
    arb_info("referee", "%s: %d slots, scheduler %s, sandbox %s, metrics on %s", c.name, c.slots, c.connect,
             o.live.bwrap ? "bwrap" : "rlimits", c.metrics[0] ? c.metrics : "nothing");
    int rc = worker_run(&o);
    arb_info("referee", "%s: stopped (%llu matches played, %llu handed back)", c.name,
             (unsigned long long)atomic_load(&stats.matches_done), (unsigned long long)atomic_load(&stats.released));
    arb_http_stop(http);
    /* no zmq_ctx_term: matches handed back may still be playing on their
     * threads, holding sockets; the process ends here and their bots with
     * it (PR_SET_PDEATHSIG) */
    return rc == ARB_EUNSUPPORTED ? CLI_EXIT_UNSUPPORTED : rc ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
