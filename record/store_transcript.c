/* store_transcript.c — transcripts in the record (store.h, migration 016):
 * content-addressed by their digest, compressed with zstd, checked again
 * when read (decompressed length, SHA-256); the reader every command and
 * page uses (the record first, the file of a record made before 016 next);
 * retention and the figures of docs/transcripts.md. */
#include "store_int.h"
#include "tr_blob.h"
#include "arb_error.h"
#include "arb_file.h"
#include "arb_limits.h"
#include "arb_num.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

/* zstd's level 3 (its default): a transcript shrinks to about a tenth
 * (docs/transcripts.md, "Size") for a millisecond per 100 KB. */
#define STORE_ZSTD_LEVEL 3

int store__pipe_send_bin(store_pipe *p, const char *sql, int n, const char *const *params, const int *lengths,
                         const int *formats)
{
    if (p->broken || p->n + 1 > STORE_PIPE_MAX) {
        p->broken = true;
        return -1;
    }
    if (PQsendQueryParams(p->s->db, sql, n, NULL, params, lengths, formats, 0) != 1) {
        p->broken = true;
        return -1;
    }
    p->prep[p->n] = -1;
    return p->n++;
}

int store_transcript_pack(const uint8_t *data, size_t len, store_packed *out, char *err, size_t errlen)
{
    *out = (store_packed){0};
    if (len > ARB_MAX_TRANSCRIPT) {
        snprintf(err, errlen, "a transcript of %zu bytes: more than ARB_MAX_TRANSCRIPT", len);
        return ARB_ETOOBIG;
    }
    size_t cap = ZSTD_compressBound(len);
    uint8_t *buf = malloc(cap ? cap : 1);
    if (!buf) {
        snprintf(err, errlen, "out of memory compressing a transcript of %zu bytes", len);
        return ARB_ENOMEM;
    }
    size_t n = ZSTD_compress(buf, cap, data, len, STORE_ZSTD_LEVEL);
    if (ZSTD_isError(n) || n >= len) {   /* not smaller: kept as it is */
        free(buf);
        if (!(buf = malloc(len ? len : 1))) {
            snprintf(err, errlen, "out of memory");
            return ARB_ENOMEM;
        }
        memcpy(buf, data, len);
        n = len;
        out->codec = "none";
    } else {
        out->codec = "zstd";
    }
    out->body = buf;
    out->len = n;
    out->raw = len;
    snprintf(out->raw_text, sizeof out->raw_text, "%zu", len);
    return 0;
}

void store_packed_release(store_packed *p)
{
    free(p->body);
    *p = (store_packed){0};
}

int store__transcript_send(store_pipe *pp, const char *digest, const store_packed *pk)
{
    const char *p[] = {digest, pk->raw_text, pk->codec, (const char *)pk->body};
    const int lengths[] = {0, 0, 0, (int)pk->len}, formats[] = {0, 0, 0, 1};
    return store__pipe_send_bin(pp, "INSERT INTO transcripts (digest, raw_size, codec, body) "
                                "VALUES ($1, $2, $3, $4) ON CONFLICT (digest) DO NOTHING", 4, p, lengths, formats);
}

int store_transcript_put(store *s, const char *digest, const uint8_t *data, size_t len, char *err, size_t errlen)
{
    if (trb_check(data, len, digest, NULL, NULL, err, errlen) != 0)
        return ARB_ECORRUPT;
    store_packed pk;
    int rc = store_transcript_pack(data, len, &pk, err, errlen);
    if (rc)
        return rc;
    store_pipe pp;
    if ((rc = store__pipe_begin(&pp, s, err, errlen)) == 0) {
        store__transcript_send(&pp, digest, &pk);
        rc = store__pipe_end(&pp, err, errlen);
        store__pipe_release(&pp);
    }
    store_packed_release(&pk);
    return rc;
}

/* A big-endian int8 of a binary result. */
static int64_t be64(const char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | (uint8_t)p[i];
    return (int64_t)v;
}

/* 1 found (data, len), 0 not in the table, < 0 an error (err). */
static int get_row(store *s, const char *digest, uint8_t **data, size_t *len, char *err, size_t errlen)
{
    const char *p[] = {digest};
    PGresult *r = PQexecParams(s->db, "SELECT raw_size, codec, body FROM transcripts WHERE digest = $1", 1, NULL, p,
                               NULL, NULL, 1);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        snprintf(err, errlen, "database: %s", PQresultErrorMessage(r));
        PQclear(r);
        return ARB_EIO;
    }
    if (PQntuples(r) != 1) {
        PQclear(r);
        return 0;
    }
    int rc = 0;
    int64_t raw = PQgetlength(r, 0, 0) == 8 ? be64(PQgetvalue(r, 0, 0)) : -1;
    const char *codec = PQgetvalue(r, 0, 1);
    int clen = PQgetlength(r, 0, 1);
    const uint8_t *body = (const uint8_t *)PQgetvalue(r, 0, 2);
    size_t blen = (size_t)PQgetlength(r, 0, 2);
    uint8_t *out = NULL;
    if (raw < 0 || (uint64_t)raw > ARB_MAX_TRANSCRIPT) {
        snprintf(err, errlen, "transcript %.16s... in the record: a raw size of %" PRId64 " bytes", digest, raw);
        rc = ARB_ECORRUPT;
        goto out;
    }
    if (!(out = malloc(raw ? (size_t)raw : 1))) {
        snprintf(err, errlen, "out of memory reading transcript %.16s...", digest);
        rc = ARB_ENOMEM;
        goto out;
    }
    if (clen == 4 && memcmp(codec, "zstd", 4) == 0) {
        unsigned long long said = ZSTD_getFrameContentSize(body, blen);
        size_t n = said == (unsigned long long)raw ? ZSTD_decompress(out, (size_t)raw, body, blen) : 0;
        if (said != (unsigned long long)raw || ZSTD_isError(n) || n != (size_t)raw) {
            snprintf(err, errlen, "transcript %.16s... in the record: its zstd body does not give its %" PRId64
                     " bytes%s%s", digest, raw, ZSTD_isError(n) ? ": " : "", ZSTD_isError(n) ? ZSTD_getErrorName(n) : "");
            rc = ARB_ECORRUPT;
            goto out;
        }
    } else if (clen == 4 && memcmp(codec, "none", 4) == 0 && blen == (size_t)raw) {
        memcpy(out, body, blen);
    } else {
        snprintf(err, errlen, "transcript %.16s... in the record: codec \"%.*s\" and %zu bytes for a raw size of %"
                 PRId64, digest, clen > 16 ? 16 : clen, codec, blen, raw);
        rc = ARB_ECORRUPT;
        goto out;
    }
    char why[256];
    if (trb_check(out, (size_t)raw, digest, NULL, NULL, why, sizeof why) != 0) {
        snprintf(err, errlen, "transcript %.16s... in the record: %s (altered in the record)", digest, why);
        rc = ARB_ECORRUPT;
        goto out;
    }
    *data = out;
    *len = (size_t)raw;
    out = NULL;
    rc = 1;
out:
    free(out);
    PQclear(r);
    return rc;
}

int store_transcript_get(store *s, const char *digest, uint8_t **data, size_t *len, char *err, size_t errlen)
{
    *data = NULL;
    *len = 0;
    int rc = get_row(s, digest, data, len, err, errlen);
    if (rc == 0)
        snprintf(err, errlen, "transcript %.64s: not in the record", digest);
    return rc == 1 ? 0 : rc == 0 ? ARB_ENOTFOUND : rc;
}

/* The file an older record names for a transcript: a regular file, never
 * through a link, opened without blocking (a FIFO planted there would
 * hang the reader: a command, or the web's render), at most
 * ARB_MAX_TRANSCRIPT bytes. */
static int read_regular(const char *path, uint8_t **out, size_t *len, char *err, size_t errlen)
{
    *out = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return ARB_EIO;
    }
    if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > ARB_MAX_TRANSCRIPT) {
        snprintf(err, errlen, "%s: %s", path, S_ISREG(st.st_mode) ? "over ARB_MAX_TRANSCRIPT" : "not a regular file");
        close(fd);
        return ARB_EINVAL;
    }
    size_t n = (size_t)st.st_size, got = 0;
    uint8_t *b = malloc(n ? n : 1);
    while (b && got < n) {
        ssize_t r = read(fd, b + got, n - got);
        if (r <= 0) {
            snprintf(err, errlen, "%s: %s", path, r < 0 ? strerror(errno) : "shorter than it said");
            free(b);
            close(fd);
            return ARB_EIO;
        }
        got += (size_t)r;
    }
    close(fd);
    if (!b) {
        snprintf(err, errlen, "%s: out of memory", path);
        return ARB_ENOMEM;
    }
    *out = b;
    *len = n;
    return 0;
}

int store_transcript_load(store *s, const char *digest, const char *path, uint8_t **data, size_t *len, char *err,
                          size_t errlen)
{
    *data = NULL;
    *len = 0;
    bool named = digest && strlen(digest) == 64;
    int rc = named ? get_row(s, digest, data, len, err, errlen) : 0;
    if (rc)
        return rc == 1 ? 0 : rc;
    if (named) {   /* pruned by retention? */
        const char *p[] = {digest};
        PGresult *r = store__q(s, err, errlen,
                               "SELECT to_char(pruned_at, 'YYYY-MM-DD') FROM transcripts_pruned WHERE digest = $1", 1, p);
        if (!r)
            return ARB_EIO;
        if (PQntuples(r) == 1) {
            snprintf(err, errlen, "transcript pruned on %s by retention", PQgetvalue(r, 0, 0));
            PQclear(r);
            return ARB_ESTATE;
        }
        PQclear(r);
    }
    /* A record made before transcripts were kept in it: the file the
     * worker wrote, where it said it wrote it. */
    if (!path || !path[0]) {
        snprintf(err, errlen, "%s", named ? "the transcript is not in the record and no file is named"
                                          : "this match has no transcript");
        return ARB_ENOTFOUND;
    }
    uint8_t *text = NULL;
    rc = read_regular(path, &text, len, err, errlen);
    /* what it holds must be the transcript the record names: a path is
     * only a place (an altered row may name any file). A void match's
     * part of a transcript has no digest: read as it is (a regular file) */
    if (rc == 0 && named && trb_check(text, *len, digest, NULL, NULL, err, errlen) != 0) {
        free(text);
        text = NULL;
        *len = 0;
        rc = ARB_ECORRUPT;
    }
    if (rc && named) {
        char why[512];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "not in the record, and %s", why);
    }
    *data = text;
    return rc;
}

int store_transcript_prune(store *s, const char *name, int days, store_prune_counts *out, char *err, size_t errlen)
{
    char d[16];
    snprintf(d, sizeof d, "%d", days);
    const char *p[] = {d, name && name[0] ? name : NULL};
    *out = (store_prune_counts){0};
    /* The matches in scope that finished before the cut; of their
     * transcripts, those of a disputed match (or one a dispute superseded)
     * and of a knockout match (an elimination format, or a round of the
     * knockout stage) stay, and so does any digest such a match shares. */
    PGresult *r = store__q(s, err, errlen,
        "WITH scope AS ("
        "  SELECT m.id, m.digest, m.finished_at FROM matches m "
        "  JOIN tournaments t ON t.id = m.tournament_id "
        "  WHERE m.digest IS NOT NULL AND ($2::text IS NULL OR t.name = $2::text)), "
        "kept AS ("
        "  SELECT m.digest FROM matches m JOIN tournaments t ON t.id = m.tournament_id "
        "  LEFT JOIN rounds r ON r.tournament_id = m.tournament_id AND r.round = m.round "
        "  WHERE t.format IN ('single-elimination', 'double-elimination') OR r.stage = 'knockout' "
        "    OR m.id IN (SELECT match_id FROM disputes) "
        "  UNION SELECT snapshot->'match'->>'digest' FROM superseded "
        /* a digest another match still uses (outside the scope, or too
         * recent) is that match's transcript too */
        "  UNION SELECT m.digest FROM matches m JOIN tournaments t ON t.id = m.tournament_id "
        "  WHERE NOT ($2::text IS NULL OR t.name = $2::text) OR m.finished_at IS NULL "
        "    OR m.finished_at >= now() - make_interval(days => $1::int)), "
        "gone AS ("
        "  DELETE FROM transcripts x WHERE x.digest IN (SELECT digest FROM scope "
        "    WHERE finished_at < now() - make_interval(days => $1::int)) "
        "    AND x.digest NOT IN (SELECT digest FROM kept WHERE digest IS NOT NULL) "
        "  RETURNING x.digest, x.raw_size, length(x.body) AS stored), "
        "noted AS (INSERT INTO transcripts_pruned (digest, raw_size) SELECT digest, raw_size FROM gone "
        "  ON CONFLICT (digest) DO NOTHING) "
        "SELECT (SELECT count(*) FROM gone), (SELECT coalesce(sum(stored), 0) FROM gone), "
        "  (SELECT count(*) FROM scope s JOIN transcripts x ON x.digest = s.digest "
        "     WHERE s.finished_at < now() - make_interval(days => $1::int)), "
        "  (SELECT count(*) FROM scope s JOIN transcripts x ON x.digest = s.digest)",
        2, p);
    if (!r)
        return ARB_EIO;
    out->pruned = arb_cell_int(PQgetvalue(r, 0, 0));
    out->bytes = arb_cell_int(PQgetvalue(r, 0, 1));
    /* what the statement saw before its DELETE: the old ones it kept */
    out->kept_old = arb_cell_int(PQgetvalue(r, 0, 2)) - out->pruned;
    out->left = arb_cell_int(PQgetvalue(r, 0, 3)) - out->pruned;
    PQclear(r);
    return 0;
}

int store_transcript_sizes(store *s, store_tr_sizes *out, char *err, size_t errlen)
{
    PGresult *r = store__q(s, err, errlen,
                           "SELECT count(*), coalesce(sum(raw_size), 0), coalesce(sum(length(body)), 0), "
                           "  pg_total_relation_size('transcripts'), pg_database_size(current_database()) "
                           "FROM transcripts", 0, NULL);
    if (!r)
        return ARB_EIO;
    out->count = arb_cell_int(PQgetvalue(r, 0, 0));
    out->raw = arb_cell_int(PQgetvalue(r, 0, 1));
    out->stored = arb_cell_int(PQgetvalue(r, 0, 2));
    out->table = arb_cell_int(PQgetvalue(r, 0, 3));
    out->database = arb_cell_int(PQgetvalue(r, 0, 4));
    PQclear(r);
    return 0;
}
