/* store_int.h — what the store's files share (store.h is the public side):
 * the connection and the three ways every statement is run. store.c holds
 * tournaments, matches and results; store_ladder.c a ladder's entries and
 * matchmaking state. */
#ifndef ARB_STORE_INT_H
#define ARB_STORE_INT_H
#include "store.h"
#include "arb_buf.h"

#include <libpq-fe.h>

struct store {
    PGconn  *db;
    uint64_t prepared;     /* bit k: statement "arb_k" is prepared on this connection (store__qp) */
    char     sqlstate[6];  /* the SQLSTATE of the last statement that failed, "" after one succeeds
                            * (store_failed_transiently) */
    char     failure[256]; /* its message, on one line (store_last_failure) */
    store_audit audit;     /* a row for the audit log, written by the next store__commit (store_audit_next) */
    bool     audit_pending;
};

/* A parameterised statement: its result (the caller clears it), or NULL
 * with "database: WHY" in err. */
/* r as it came back from libpq, or NULL (cleared) with err set and its
 * SQLSTATE noted (store_failed_transiently) when the statement failed:
 * every statement the record runs goes through it. */
PGresult *store__checked(store *s, PGresult *r, char *err, size_t errlen);
PGresult *store__q(store *s, char *err, size_t errlen, const char *sql, int n, const char *const *params);
/* The same, its result dropped: 0 or ARB_EIO. */
int store__exec0(store *s, char *err, size_t errlen, const char *sql, int n, const char *const *params);
void store__rollback(store *s);
/* COMMIT, the audit row store_audit_next set (if any) written first in the
 * same transaction; the row is spent either way. 0 or ARB_EIO (rolled
 * back). */
int store__commit(store *s, char *err, size_t errlen);
/* The same as store__q for a statement run on every result (the rating
 * update): prepared once per connection as "arb_K" (K < 64, one per call
 * site), so that PostgreSQL plans it once, not on every result. */
PGresult *store__qp(store *s, int k, char *err, size_t errlen, const char *sql, int n, const char *const *params);

/* A pipeline (libpq's pipeline mode): statements sent together, their
 * results read at one sync, so that a result's transaction costs a round
 * trip per step rather than per statement. Statements run in order; once
 * one fails the rest are skipped (and the transaction, if one is open,
 * must be rolled back). */
#define STORE_PIPE_MAX 16
typedef struct store_pipe {
    store    *s;
    int       n;                        /* slots used */
    int       prep[STORE_PIPE_MAX];     /* >= 0: the slot is the Prepare of statement arb_K */
    PGresult *res[STORE_PIPE_MAX];      /* each slot's result, after store__pipe_end */
    bool      broken;                   /* a send failed */
} store_pipe;
/* Pipeline mode entered on s's connection: 0 or ARB_EIO. */
int store__pipe_begin(store_pipe *p, store *s, char *err, size_t errlen);
/* One statement sent (k >= 0: prepared once per connection as
 * store__qp's statement K): its slot, whose result store__pipe_end keeps,
 * or -1 when it could not be sent (store__pipe_end then fails). */
int store__pipe_send(store_pipe *p, int k, const char *sql, int n, const char *const *params);
/* Sync, every result read, pipeline mode left: 0 when every statement
 * succeeded, else ARB_EIO with the first error in err. The results stay in
 * p->res until store__pipe_release. */
int store__pipe_end(store_pipe *p, char *err, size_t errlen);
void store__pipe_release(store_pipe *p);
/* The same as store__pipe_send for a statement with binary parameters
 * (formats[i] 1: lengths[i] bytes), never prepared (store_transcript.c). */
int store__pipe_send_bin(store_pipe *p, const char *sql, int n, const char *const *params, const int *lengths,
                         const int *formats);
/* The insert of a packed transcript under digest, sent into a pipeline
 * (store_record's transaction): its slot, or -1. */
int store__transcript_send(store_pipe *pp, const char *digest, const store_packed *pk);

/* PostgreSQL array literals built element by element: a formatted
 * element ("NULL" for a null), a text element quoted and escaped, and the
 * closing brace ("{}" when empty). 0 or ARB_ENOMEM. */
int store__arr_put(arb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int store__arr_text(arb_buf *b, const char *text);
int store__arr_close(arb_buf *b);

/* A result's cells copied into out (every column as text), the result
 * cleared: 0, or ARB_ENOMEM with "out of memory" in err (store_ladder.c). */
int store__rows(PGresult *r, store_rows *out, char *err, size_t errlen);

/* A result's ratings (store_rating.c), in the transaction that records
 * match mid while it holds its tournament's row lock: the read of every
 * match that can now be rated sent into a pipeline (its slot), then, from
 * that read's result, the updates computed and their write sent into the
 * next pipeline (nothing when there is nothing to rate). 0 or < 0 with a
 * message. */
int store__rate_read(store_pipe *p, const char *mid, const char *tid);   /* one of them, the other NULL */
int store__rate_write(store_pipe *p, const PGresult *read, const char *tid, int sys, int model, char *err,
                      size_t errlen);

/* Every rating of tournament tid derived again from its results in plan
 * order (a dispute changed one), inside the caller's transaction, which
 * holds the tournament's row lock. 0 or < 0 with a message. */
int store__rerate(store *s, const char *tid, char *err, size_t errlen);

/* A statement's rows copied (store__q then store__rows): 0 or < 0. */
int store__rows_q(store *s, const char *sql, int n, const char *const *p, store_rows *out, char *err, size_t errlen);

/* A statement with some parameters as bytes (binary[i] 1: lengths[i]
 * bytes), its result as text: as store__q (store_program.c). */
PGresult *store__qbin(store *s, char *err, size_t errlen, const char *sql, int n, const char *const *params,
                      const int *lengths, const int *binary);
/* zstd, for what the record keeps compressed (programs, transcripts):
 * len bytes packed into *out (malloc'ed); and a frame unpacked into *out
 * (malloc'ed) only if it says it holds exactly size bytes, size <= cap.
 * 0, or ARB_ENOMEM, ARB_ETOOBIG, ARB_ECORRUPT with a message. */
int store__zstd_pack(const uint8_t *b, size_t len, uint8_t **out, size_t *outlen, char *err, size_t errlen);
int store__zstd_unpack(const uint8_t *z, size_t zlen, size_t size, size_t cap, uint8_t **out, char *err,
                       size_t errlen);
/* A binary result's compressed cell of row 0: columns col (its size
 * uncompressed, int8), col + 1 (its codec, zstd or none), col + 2 (the
 * bytes), into *out (malloc'ed) and *len; at most cap bytes. 0, or
 * ARB_ECORRUPT, ARB_ETOOBIG, ARB_ENOMEM with a message. */
int store__blob(const PGresult *r, int col, size_t cap, uint8_t **out, size_t *len, char *err, size_t errlen);
/* len bytes compressed and kept by sql, whose parameters are $1 the
 * digest, $2 the size uncompressed, $3 the compressed bytes: 0 or < 0. */
int store__put_zstd(store *s, const char *sql, const char *digest, const uint8_t *b, size_t len, char *err,
                    size_t errlen);

/* store.c's own short names for them. */
/* "SELECT " the columns (a store_cols.h list) ", "-separated, then rest,
 * into sql (cap bytes): 0, or ARB_ETOOBIG when it does not fit. */
int store__select(char *sql, size_t cap, const char *const *cols, int ncols, const char *rest);
/* An X-macro column list's expressions, for store__select. */
#define STORE_COL_EXPR(name, expr) expr,
/* A statement of store__select's that does not fit in 4 KiB. */
#define STORE_SELECT_MAX 4096

#define q store__q
#define exec0 store__exec0
#define rollback store__rollback
#define qp store__qp

#endif
