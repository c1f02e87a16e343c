/* metrics.c — the scheduler's Prometheus text (scheduler.h), read from the
 * metrics endpoint's thread: atomics only. */
#include "sched_int.h"
#include "arb_http.h"

size_t sched_metrics(void *ctx, char *buf, size_t cap)
{
    sched_stats *st = &((sched *)ctx)->st;
    size_t off = 0;
    arb_prom(buf, cap, &off, "arbiter_matches_queued", "gauge", "Matches waiting for a worker (running tournaments)",
             atomic_load(&st->queued));
    arb_prom(buf, cap, &off, "arbiter_matches_leased", "gauge", "Matches leased to workers (running tournaments)",
             atomic_load(&st->leased));
    arb_prom(buf, cap, &off, "arbiter_tournaments_running", "gauge", "Tournaments this scheduler runs now",
             atomic_load(&st->tournaments));
    arb_prom(buf, cap, &off, "arbiter_matches_done_total", "counter", "Results recorded by this scheduler",
             (double)atomic_load(&st->done));
    arb_prom(buf, cap, &off, "arbiter_matches_void_total", "counter", "Matches recorded void",
             (double)atomic_load(&st->voided));
    arb_prom(buf, cap, &off, "arbiter_results_stale_total", "counter",
             "Results discarded: stale lease or recorded already", (double)atomic_load(&st->stale));
    arb_prom(buf, cap, &off, "arbiter_workers_connected", "gauge", "Referee worker processes in the pool",
             atomic_load(&st->workers));
    arb_prom(buf, cap, &off, "arbiter_worker_slots", "gauge", "Match slots of the pool", atomic_load(&st->slots));
    arb_prom(buf, cap, &off, "arbiter_leases_expired_total", "counter",
             "Leases returned to the queue because their worker went silent or dropped them",
             (double)atomic_load(&st->leases_expired));
    arb_prom(buf, cap, &off, "arbiter_leases_released_total", "counter", "Leases handed back by workers",
             (double)atomic_load(&st->released));
    arb_prom(buf, cap, &off, "arbiter_frames_malformed_total", "counter", "Frames dropped as malformed",
             (double)atomic_load(&st->malformed));
    arb_prom(buf, cap, &off, "arbiter_workers_refused_total", "counter", "Hellos refused (protocol version, pool full)",
             (double)atomic_load(&st->refused));
    arb_prom(buf, cap, &off, "arbiter_results_refused_total", "counter",
             "Results, voids refused: the sender's key does not hold the lease", (double)atomic_load(&st->forged));
    arb_prom(buf, cap, &off, "arbiter_frames_flooded_total", "counter",
             "Frames dropped unread: their key was over its frame budget", (double)atomic_load(&st->flooded));
    arb_prom(buf, cap, &off, "arbiter_store_errors_total", "counter",
             "Frames whose statement failed on a live database (not acknowledged: resent)",
             (double)atomic_load(&st->store_errors));
    arb_prom(buf, cap, &off, "arbiter_transcript_chunks_refused_total", "counter",
             "Transcript chunks refused: out of order, over the bytes held, or for a lease the sender does not hold",
             (double)atomic_load(&st->transcripts_refused));
    arb_prom(buf, cap, &off, "arbiter_transcripts_stored_total", "counter",
             "Transcripts checked against their signed digest and kept in the record",
             (double)atomic_load(&st->transcripts_stored));
    arb_prom(buf, cap, &off, "arbiter_programs_served_total", "counter", "Program bundles sent to workers",
             (double)atomic_load(&st->programs_served));
    arb_prom(buf, cap, &off, "arbiter_bot_timeouts_total", "counter", "Bot decisions that ran out of time",
             (double)atomic_load(&st->timeouts));
    arb_prom(buf, cap, &off, "arbiter_bot_penalties_total", "counter", "Penalties given to bots",
             (double)atomic_load(&st->penalties));
    arb_prom(buf, cap, &off, "arbiter_decisions_total", "counter", "Bot decisions judged",
             (double)atomic_load(&st->decisions));
    arb_prom(buf, cap, &off, "arbiter_decisions_per_second", "gauge", "Bot decisions per second over the last 10 s",
             (double)atomic_load(&st->decisions_per_s_x1000) / 1000.0);
    return off;
}
