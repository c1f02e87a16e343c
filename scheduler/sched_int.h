/* sched_int.h — what the scheduler's files share (scheduler.h is the public
 * side): the pool's peers and budgets, the programs it serves, the set of
 * tournaments it runs, and the one struct they hang from. Internal
 * functions shared between the files are sched__*; everything else is
 * static in its file.
 *
 *   pool.c      the ROUTER, hellos, heartbeats, frame budgets, leases held,
 *               the timers, the event pump; sched_new/free
 *   programs.c  entrants' programs packed into bundles by digest, kept in
 *               the record, served from it to workers that fetch them
 *   results.c   results and voids recorded under their lease generation,
 *               progress reports
 *   transcripts.c transcripts arriving in chunks, held (bounded) until
 *               their result takes them
 *   loop.c      the set of tournaments: rounds from plan.h, matches leased
 *               to free slots fairly across tournaments, the daemon's loop
 *   ladder_run.c a ladder among them: entries as they join, validation,
 *               matchmaking (ladder.h) into the record
 *   metrics.c   the Prometheus text */
#ifndef ARB_SCHED_INT_H
#define ARB_SCHED_INT_H
#include "scheduler.h"
#include "wire.h"
#include "zap.h"
#include "arb_limits.h"

#include <zmq.h>

#define SCHED_SUB "scheduler"   /* the log subsystem */
#define DPS_WINDOW 10           /* seconds over which decisions per second are averaged */

/* A lease a worker holds. */
typedef struct held {
    store_match m;
    uint64_t since_ns;       /* when it was assigned or adopted */
    wire_progress_info prog; /* the last progress heard */
} held;

/* A referee worker process of the pool: one DEALER, several slots. It is
 * known by the identity its CURVE key was admitted as (the ZAP User-Id),
 * never by a name it chooses: one key, one peer. */
typedef struct peer {
    char     id[ZAP_ID_MAX + 1];      /* its key's identity: the lease holder in the record */
    uint8_t  rid[256];                /* the routing id of its latest hello: where frames go */
    size_t   ridlen;
    int      slots, free_reported;
    held    *held;                    /* ARB_WORKER_MAX_SLOTS entries */
    int      nheld;
    uint64_t last_heard;
    int64_t  done, lost;              /* results recorded; leases lost (silent, or no longer named) */
    int64_t  handed_back;             /* leases it handed back itself (a clean stop, no free slot) */
    int64_t  done_rec, lost_rec, back_rec; /* of done, lost, handed_back: what its row counts already */
    bool     draining;                /* it said 0 free with slots idle: it stops; a result frees nothing */
    bool     dead;                    /* unroutable: removed at the next sweep */
    bool     local;
    uint8_t  sign_pk[32];             /* its transcript-signing key, from its hello (arb_sign.h) */
} peer;

/* What one identity may still send (a token bucket of frames,
 * ARB_WORKER_FRAMES_PER_S), and when it was last told to say hello. */
typedef struct budget {
    char     id[ZAP_ID_MAX + 1];
    double   tokens;
    uint64_t last_ns;
    uint64_t next_rehello;
    uint64_t dropped;         /* frames over budget since the last warning */
} budget;

/* A program the scheduler can ship: its digest and the files it packs. */
typedef struct program {
    char digest[65];
    int  nfiles;
    char (*files)[4096];
    char *tree;      /* NULL, or the directory or archive it was packed from (files:) */
    bool archive;
} program;

/* A transcript arriving in chunks (transcripts.c): from one identity, for
 * one lease, until its result takes it. */
typedef struct tr_asm {
    char     id[ZAP_ID_MAX + 1];      /* the sender's identity */
    int64_t  match_id;
    int      gen;
    uint64_t total;                   /* as its first chunk said */
    uint8_t *buf;                     /* cap bytes, have of them filled */
    size_t   have, cap;
    uint64_t touched_ns;              /* its last chunk (monotonic): idle ones are dropped */
    char     refused[160];            /* "" or why its result is refused (the transcript changed) */
} tr_asm;

/* One entrant's bot as every match starts it, and the files of it that a
 * worker on another host fetches. */
typedef struct entrant_bot {
    match_bot_cfg bot;
    int  nfiles;
    int  argi[ARB_MAX_BOT_ARGS];
    char rel[ARB_MAX_BOT_ARGS][ARB_BUNDLE_MAX_PATH + 1];
    char digest[65];
} entrant_bot;

/* A tournament of the running set. */
typedef struct tour {
    sched_tournament_options o; /* its configuration, text, digest, progress callback */
    tn_config own;              /* the configuration when the set loaded it (o.cfg points here) */
    bool      owned;
    char     *text;             /* the file's text when the set read it (o.yaml points here) */
    sched_outcome out;          /* what this run did with it */
    int64_t   tid;
    entrant_bot *bots;          /* one per entrant (a ladder's grow as entries join) */
    int       nbots;
    bool      ladder;           /* format ladder (ladder_run.c) */
    int64_t   ladder_created;   /* its ladder matches created so far */
    sched_ladder_view *view;    /* its entries as matchmaking last read them */
    char      last[512];        /* the last result, for progress reports */
    int       round;            /* the highest round created */
    uint64_t  t0;               /* when this run took it up (monotonic) */
    int       queued, leased;   /* its matches by state, as last counted (+ claims since) */
    bool      exhausted;        /* nothing claimable in this dispatch pass */
    bool      dirty;            /* a result came: count again, maybe a new round */
    uint64_t  counted_ns;       /* when it was last counted (monotonic) */
    bool      done;             /* finished, or dropped from the set */
    uint8_t   secret[32];       /* match keys derive from it (docs/rng.md) */
    bool      registering;      /* an open tournament before its deadline: no round, no bot yet */
    tn_config field;            /* an open tournament's configuration with its registered entrants
                                   (o.cfg points here once registration closed) */
    bool      has_field;
} tour;

struct sched {
    sched_options o;
    void *ctx, *router;
    zap *zapper;
    char endpoint[256];
    int hb_ms, misses, lease_s;
    peer *peers;                 /* ARB_POOL_MAX_WORKERS */
    int npeers;
    budget *budgets;             /* ARB_WORKER_BUDGETS, one per identity heard */
    int nbudgets;
    program *progs;              /* ARB_POOL_MAX_PROGRAMS, of every tournament taken up */
    int nprogs;
    tour *tours[ARB_SCHED_MAX_TOURNAMENTS]; /* the set being run */
    int ntours;
    unsigned next_tour;          /* where the fair dispatch starts its ties */
    bool released;               /* STOP sent (sched_release_workers) */
    bool wdir_apart;
    char lpub[ZAP_KEY_TEXT], lsec[ZAP_KEY_TEXT], wdir[700], tdir[700];
    uint64_t next_hb, next_renew, next_pool, next_dps;
    tr_asm *asms;                /* transcripts arriving (ARB_SCHED_TRANSCRIPT_ASSEMBLIES) */
    int nasms, asms_cap;
    uint64_t asm_bytes;          /* their buffers, in all (ARB_SCHED_TRANSCRIPT_HELD_TOTAL) */
    uint64_t dps_ring[DPS_WINDOW];
    int dps_i;
    sched_stats st;
};

/* Who sent the frame being handled: the identity its key was admitted as
 * (every decision about authority uses it) and the routing id of its
 * connection (only to answer it). */
typedef struct sender {
    const char    *id;
    const uint8_t *rid;
    size_t         ridlen;
} sender;

/* pool.c */
int   sched__send_to(sched *s, const uint8_t *rid, size_t ridlen, uint8_t *frame, size_t len);  /* frees frame */
void  sched__peer_send(sched *s, peer *p, uint8_t *frame, size_t len);                         /* frees frame */
held *sched__find_held(peer *p, int64_t id, int gen);   /* gen < 0: any */
void  sched__drop_held(peer *p, held *h);
/* Everything that arrives within ms, then the timers. */
int   sched__pump(sched *s, int ms, char *err, size_t errlen);

/* programs.c */
/* Every entrant's bot of t, its files packed and registered for fetches. */
int   sched__load_bots(sched *s, tour *t, char *err, size_t errlen);
void  sched__serve_program(sched *s, const sender *from, const char *digest);

/* Which program entrant idx of tournament tid plays, in the record
 * (the first start's stays): 0 or < 0 with a message. */
int   sched__record_program(sched *s, int64_t tid, int idx, const entrant_bot *eb, char *err, size_t errlen);
/* Entrant e plays its recorded program rec (unpacked from the record into
 * the program cache, the command's file words pointed there): a ladder
 * entry uploaded through the API has no files on this disk. 0 or < 0. */
int   sched__from_record(sched *s, entrant_bot *eb, const tn_entrant *e, const char *base,
                         const store_entrant_prog *rec, char *err, size_t errlen);

/* One entrant's bot as matches start it, its files packed, kept in the
 * record and registered for fetches: its command's files from base, its
 * files: inside root. */
int   sched__entrant_bot(sched *s, entrant_bot *eb, const tn_entrant *e, const char *base, const char *root,
                         char *err, size_t errlen);

/* ladder_run.c */
/* A ladder taken up: the file's entries in the record, every joined
 * entry's program. */
int   sched__ladder_begin(sched *s, tour *t, char *err, size_t errlen);
/* A ladder's step: programs of entries that joined since, validations
 * started and judged, matches made while it has room; its end when it
 * played ladder.matches. 0, or an error with a message. */
int   sched__ladder_advance(sched *s, tour *t, char *err, size_t errlen);

/* results.c */
int   sched__on_result(sched *s, const sender *from, peer *p, const uint8_t *data, size_t n, char *err,
                       size_t errlen);

/* transcripts.c */
/* A chunk of a transcript (WIRE_TRANSCRIPT) from a sender (p: its peer, or
 * NULL when it has not said hello since we started). */
void  sched__on_chunk(sched *s, const sender *from, peer *p, const uint8_t *data, size_t n);
/* The transcript the sender sent for this lease, taken: 1 with *buf (the
 * caller frees it) and *len when it came whole; 0 when none or only part
 * came (why says which: the result is not acknowledged, and comes again
 * with its chunks); -1 when it must be refused (why says why). */
int   sched__take_transcript(sched *s, const char *id, int64_t match_id, int gen, uint8_t **buf, size_t *len,
                             char *why, size_t whylen);
/* Assemblies idle past two resend periods, dropped. */
void  sched__expire_transcripts(sched *s, uint64_t now);
void  sched__free_transcripts(sched *s);

/* loop.c */
/* The tournament of the set with this id, or NULL. */
tour *sched__tour_of(sched *s, int64_t tid);

#endif
