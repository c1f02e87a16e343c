/* store_archive.c — a tournament's record out and in (store.h, `arbiter
 * export` / `arbiter import`, docs/operations.md "Archiving"): every row of
 * its tables as JSON arrays that PostgreSQL writes and reads itself
 * (to_jsonb, jsonb_populate_recordset: every type round-trips exactly,
 * floats included), its programs and its transcripts as their bytes. In,
 * everything goes into one transaction with every id the record gives
 * (tournament, matches, disputes, events) drawn anew and every reference
 * to one mapped; out, one repeatable-read snapshot. */
#include "store_int.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_num.h"

#include <inttypes.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A table of a tournament as an archive carries it. Columns the record
 * draws itself are dropped on the way in (their order kept by `order`);
 * columns naming an id of this archive are mapped (kind 'm' matches, 'd'
 * disputes); premap: the ids to draw before the rows go in. */
typedef struct map_col {
    const char *col;
    char kind;
    bool premap;            /* draw a new id for each old one not mapped yet */
} map_col;
typedef struct tspec {
    const char *name;
    const char *where;      /* the tournament's rows ($1 its id) */
    const char *order;      /* the rows' order, out and in (a column list) */
    const char *drop[2];
    map_col map[3];
} tspec;

#define OF_T "t.tournament_id = $1"
#define OF_M "t.match_id IN (SELECT id FROM matches WHERE tournament_id = $1)"

/* In the order they are written and read (foreign keys). entrant_programs
 * comes after the programs, which come after these. */
static const tspec tables[] = {
    {"tournaments", "t.id = $1", "id", {NULL}, {{NULL}}},
    {"teams", OF_T, "idx", {NULL}, {{NULL}}},
    {"entrants", OF_T, "idx", {NULL}, {{NULL}}},
    {"rounds", OF_T, "round", {NULL}, {{NULL}}},
    {"matches", OF_T, "id", {NULL}, {{"id", 'm', true}}},
    {"match_seats", OF_M, "match_id, slot", {NULL}, {{"match_id", 'm', false}}},
    {"match_sides", OF_M, "match_id, side", {NULL}, {{"match_id", 'm', false}}},
    {"deals", OF_M, "match_id, game", {NULL}, {{"match_id", 'm', false}}},
    {"penalties", OF_M, "match_id, n", {NULL}, {{"match_id", 'm', false}}},
    {"ratings", OF_T, "entrant", {"changed"}, {{"last_match", 'm', false}}},
    {"rating_history", OF_M, "seq", {"seq"}, {{"match_id", 'm', false}}},
    {"ladder_entries", OF_T, "entrant", {"changed"}, {{"validation_match", 'm', false}}},
    /* a dispute outlives a match it invalidated: its id gets a new one too */
    {"disputes", OF_T, "id", {NULL}, {{"id", 'd', true}, {"match_id", 'm', true}}},
    {"superseded", OF_T, "id", {"id"}, {{"match_id", 'm', true}, {"dispute_id", 'd', false}}},
    {"placements", OF_T, "unit", {NULL}, {{NULL}}},
    {"events", OF_T, "id", {"id"}, {{NULL}}},
    /* its transcripts that retention removed: their digests may go without
     * a transcripts/ member (import_check) */
    {"transcripts_pruned", "t.digest IN (SELECT digest FROM matches WHERE tournament_id = $1 UNION SELECT "
     "snapshot->'match'->>'digest' FROM superseded WHERE tournament_id = $1)",
     "digest", {NULL}, {{NULL}}},
    {"entrant_programs", OF_T, "entrant", {NULL}, {{NULL}}},
};
#define NTABLES ((int)(sizeof tables / sizeof tables[0]))
#define RANK_PROGRAMS (NTABLES - 1)           /* programs/ go before entrant_programs */
#define RANK_TRANSCRIPTS (NTABLES + 1)

int store_schema_version(store *s, int *version, char *err, size_t errlen)
{
    PGresult *r = q(s, err, errlen, "SELECT coalesce(max(version), 0) FROM schema_migrations", 0, NULL);
    if (!r)
        return ARB_EIO;
    *version = (int)arb_cell_int(PQgetvalue(r, 0, 0));
    PQclear(r);
    return 0;
}

/* ---- out ----------------------------------------------------------------- */

/* One member to the sink: 0, or its error (the message in err). */
static int emit(store_sink sink, void *ctx, const char *name, const void *data, size_t len, char *err, size_t errlen)
{
    return sink(ctx, name, data, len, err, errlen);
}

/* The rows of one table, in chunks (ARB_ARCHIVE_CHUNK_*), through a cursor. */
static int export_table(store *s, const tspec *t, const char *tid, store_sink sink, void *ctx, char *err, size_t errlen)
{
    char sql[1024];
    /* the secret only once it is revealed (the tournament is over) */
    const char *extra = strcmp(t->name, "tournaments") == 0
                            ? " || jsonb_build_object('secret', CASE WHEN t.revealed_at IS NOT NULL THEN t.secret END)"
                            : "";
    snprintf(sql, sizeof sql, "DECLARE arb_export NO SCROLL CURSOR FOR SELECT (to_jsonb(t)%s)::text FROM %s t "
             "WHERE %s ORDER BY %s", extra, t->name, t->where, t->order);
    const char *p[] = {tid};
    int rc = exec0(s, err, errlen, sql, 1, p);
    if (rc)
        return rc;
    arb_buf chunk;
    arb_buf_init(&chunk, ARB_ARCHIVE_MAX_RECORD_MEMBER);
    int rows = 0, part = 0;
    bool more = true;
    while (more && rc == 0) {
        PGresult *r = q(s, err, errlen, "FETCH 500 FROM arb_export", 0, NULL);
        if (!r) {
            rc = ARB_EIO;
            break;
        }
        int n = PQntuples(r);
        more = n > 0;
        for (int i = 0; i < n && rc == 0; i++) {
            rc = arb_buf_puts(&chunk, rows ? ",\n" : "[") || arb_buf_puts(&chunk, PQgetvalue(r, i, 0)) ? ARB_ETOOBIG
                                                                                                       : 0;
            rows++;
            if (rc == 0 && (rows == ARB_ARCHIVE_CHUNK_ROWS || chunk.len >= ARB_ARCHIVE_CHUNK_BYTES)) {
                char name[96];
                snprintf(name, sizeof name, "record/%s.%06d.json", t->name, ++part);
                rc = arb_buf_puts(&chunk, "]\n") ? ARB_ETOOBIG : emit(sink, ctx, name, chunk.data, chunk.len, err,
                                                                      errlen);
                arb_buf_reset(&chunk);
                rows = 0;
            }
        }
        PQclear(r);
    }
    if (rc == 0 && (rows > 0 || part == 0)) {   /* the last chunk; an empty table is one empty array */
        char name[96];
        snprintf(name, sizeof name, "record/%s.%06d.json", t->name, ++part);
        rc = arb_buf_puts(&chunk, rows ? "]\n" : "[]\n") ? ARB_ETOOBIG
                                                         : emit(sink, ctx, name, chunk.data, chunk.len, err, errlen);
    }
    if (rc == ARB_ETOOBIG)
        snprintf(err, errlen, "%s: a row of more than %u bytes", t->name, ARB_ARCHIVE_MAX_RECORD_MEMBER);
    arb_buf_release(&chunk);
    if (rc == 0)
        rc = exec0(s, err, errlen, "CLOSE arb_export", 0, NULL);
    return rc;
}

static int export_programs(store *s, const char *tid, store_sink sink, void *ctx, store_export_info *info, char *err,
                           size_t errlen)
{
    const char *p[] = {tid};
    PGresult *r = q(s, err, errlen,
                    "SELECT digest FROM entrant_programs WHERE tournament_id = $1 UNION "
                    "SELECT digest FROM ladder_entries WHERE tournament_id = $1 AND digest IN (SELECT digest FROM programs) "
                    "ORDER BY 1", 1, p);
    if (!r)
        return ARB_EIO;
    int rc = 0;
    for (int i = 0; i < PQntuples(r) && rc == 0; i++) {
        const char *d = PQgetvalue(r, i, 0);
        uint8_t *b;
        size_t len;
        rc = store_program_get(s, d, &b, &len, err, errlen);
        if (rc == 1) {
            char name[96];
            snprintf(name, sizeof name, "programs/%s", d);
            rc = emit(sink, ctx, name, b, len, err, errlen);
            free(b);
            info->programs++;
        } else if (rc == 0) {
            rc = ARB_ECORRUPT;   /* entrant_programs names it: a foreign key says it is there */
        }
    }
    PQclear(r);
    return rc;
}

static int export_transcripts(store *s, const char *tid, store_sink sink, void *ctx, store_export_info *info,
                              char *err, size_t errlen)
{
    const char *p[] = {tid};
    /* the matches' and the superseded results' (their snapshots) */
    int rc = exec0(s, err, errlen,
                   "DECLARE arb_export NO SCROLL CURSOR FOR SELECT x.digest, x.raw_size, x.codec, x.body "
                   "FROM transcripts x WHERE x.digest IN (SELECT digest FROM matches WHERE tournament_id = $1 "
                   "UNION SELECT snapshot->'match'->>'digest' FROM superseded WHERE tournament_id = $1) ORDER BY 1",
                   1, p);
    if (rc)
        return rc;
    for (;;) {
        PGresult *r = store__checked(s, PQexecParams(s->db, "FETCH 1 FROM arb_export", 0, NULL, NULL, NULL, NULL, 1),
                                     err, errlen);
        if (!r)
            return ARB_EIO;
        if (PQntuples(r) == 0) {
            PQclear(r);
            break;
        }
        /* binary: the digest as text, then raw_size, codec, body */
        char digest[65], why[256] = "";
        snprintf(digest, sizeof digest, "%.*s", PQgetlength(r, 0, 0), PQgetvalue(r, 0, 0));
        uint8_t *raw = NULL;
        size_t size = 0;
        rc = store__blob(r, 1, ARB_MAX_TRANSCRIPT, &raw, &size, why, sizeof why);
        /* its digest covers the bytes before its digest record
         * (docs/transcripts.md): the caller checks it, as the record does
         * not parse transcripts */
        if (rc == 0) {
            char name[96];
            snprintf(name, sizeof name, "transcripts/%s", digest);
            rc = emit(sink, ctx, name, raw, size, err, errlen);
            info->transcripts++;
        } else {
            snprintf(err, errlen, "transcript %.12s in the record: %s", digest, why);
        }
        free(raw);
        PQclear(r);
        if (rc)
            return rc;
    }
    return exec0(s, err, errlen, "CLOSE arb_export", 0, NULL);
}

int store_export(store *s, int64_t tid, store_sink sink, void *ctx, store_export_info *info, char *err,
                 size_t errlen)
{
    memset(info, 0, sizeof *info);
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, tid);
    int rc = exec0(s, err, errlen, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", 0, NULL);
    if (rc)
        return rc;
    const char *p[] = {id};
    PGresult *r = q(s, err, errlen, "SELECT name, state, revealed_at IS NOT NULL, "
                                    "(SELECT coalesce(max(version), 0) FROM schema_migrations) "
                                    "FROM tournaments WHERE id = $1", 1, p);
    if (!r || PQntuples(r) != 1) {
        if (r)
            snprintf(err, errlen, "no tournament %" PRId64 " in the record", tid);
        PQclear(r);
        rollback(s);
        return r ? ARB_ENOTFOUND : ARB_EIO;
    }
    snprintf(info->name, sizeof info->name, "%s", PQgetvalue(r, 0, 0));
    snprintf(info->state, sizeof info->state, "%s", PQgetvalue(r, 0, 1));
    info->revealed = PQgetvalue(r, 0, 2)[0] == 't';
    info->schema = (int)arb_cell_int(PQgetvalue(r, 0, 3));
    PQclear(r);
    for (int i = 0; i < NTABLES && rc == 0; i++) {
        if (i == RANK_PROGRAMS)
            rc = export_programs(s, id, sink, ctx, info, err, errlen);
        if (rc == 0)
            rc = export_table(s, &tables[i], id, sink, ctx, err, errlen);
    }
    if (rc == 0)
        rc = export_transcripts(s, id, sink, ctx, info, err, errlen);
    rollback(s);   /* read only: nothing to keep */
    return rc;
}

/* ---- in ------------------------------------------------------------------ */

struct store_import {
    store  *s;
    int64_t tid;            /* the tournament drawn anew (0 before its member) */
    char    id[24];         /* the same as text */
    int     rank;           /* of the last member taken: members come in order */
    bool    failed;
    char    name[ARB_TN_MAX_NAME + 1];   /* the tournament row's name */
};

store_import *store_import_begin(store *s, char *err, size_t errlen)
{
    store_import *im = calloc(1, sizeof *im);
    if (!im) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    im->s = s;
    im->rank = -1;
    if (exec0(s, err, errlen, "BEGIN", 0, NULL) != 0
        || exec0(s, err, errlen,
                 "CREATE TEMP TABLE arb_idmap (kind \"char\", old bigint, new bigint NOT NULL, "
                 "PRIMARY KEY (kind, old)) ON COMMIT DROP", 0, NULL) != 0
        /* the programs ('p') and transcripts ('t') the archive itself holds */
        || exec0(s, err, errlen,
                 "CREATE TEMP TABLE arb_members (kind \"char\", digest text, PRIMARY KEY (kind, digest)) "
                 "ON COMMIT DROP", 0, NULL) != 0) {
        rollback(s);
        free(im);
        return NULL;
    }
    return im;
}

/* name's table ("record/TABLE.NNNNNN.json"): its index, or -1. */
static int table_of(const char *name)
{
    if (strncmp(name, "record/", 7) != 0)
        return -1;
    const char *t = name + 7, *dot = strchr(t, '.');
    if (!dot || strlen(dot) != 12 || strcmp(dot + 7, ".json") != 0 || strspn(dot + 1, "0123456789") != 6)
        return -1;
    for (int i = 0; i < NTABLES; i++)
        if (strlen(tables[i].name) == (size_t)(dot - t) && strncmp(tables[i].name, t, (size_t)(dot - t)) == 0)
            return i;
    return -1;
}

static bool hex64(const char *d)
{
    return strlen(d) == 64 && strspn(d, "0123456789abcdef") == 64;
}

/* The tournament's row: a new id, its name not in this record yet. */
static int import_tournament(store_import *im, const char *json, char *err, size_t errlen)
{
    const char *p[] = {json};
    PGresult *r = q(im->s, err, errlen,
                    "SELECT jsonb_array_length($1::jsonb), (SELECT r.name FROM jsonb_populate_recordset("
                    "NULL::tournaments, $1::jsonb) r LIMIT 1), (SELECT min(t.id) FROM tournaments t WHERE t.name = "
                    "(SELECT r.name FROM jsonb_populate_recordset(NULL::tournaments, $1::jsonb) r LIMIT 1)), "
                    "nextval(pg_get_serial_sequence('tournaments', 'id'))", 1, p);
    if (!r)
        return ARB_EINVAL;
    int rc = 0;
    if (strcmp(PQgetvalue(r, 0, 0), "1") != 0) {
        snprintf(err, errlen, "it holds %s tournaments, not one", PQgetvalue(r, 0, 0));
        rc = ARB_EINVAL;
    } else if (!PQgetisnull(r, 0, 2)) {
        snprintf(err, errlen, "a tournament named \"%.200s\" is in this record already (id %s): import refused "
                 "(nothing was written)", PQgetvalue(r, 0, 1), PQgetvalue(r, 0, 2));
        rc = ARB_EEXIST;
    } else {
        im->tid = strtoll(PQgetvalue(r, 0, 3), NULL, 10);
        snprintf(im->id, sizeof im->id, "%" PRId64, im->tid);
        snprintf(im->name, sizeof im->name, "%s", PQgetvalue(r, 0, 1));
    }
    PQclear(r);
    return rc;
}

/* One chunk of table t: its columns that this record has (refusing one it
 * has not: an archive of a newer arbiter), the ids mapped, inserted. */
static int import_rows(store_import *im, const tspec *t, const char *json, char *err, size_t errlen)
{
    store *s = im->s;
    const char *p[] = {json, t->name};
    PGresult *r = q(s, err, errlen,
                    "SELECT k, EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = $2::regclass AND a.attname = k "
                    "AND a.attnum > 0 AND NOT a.attisdropped) FROM (SELECT DISTINCT jsonb_object_keys(e) AS k "
                    "FROM jsonb_array_elements($1::jsonb) e) x ORDER BY k", 2, p);
    if (!r)
        return ARB_EINVAL;
    arb_buf cols, exprs, sql;
    arb_buf_init(&cols, 1u << 16);
    arb_buf_init(&exprs, 1u << 16);
    arb_buf_init(&sql, 1u << 17);
    int rc = 0;
    for (int i = 0; i < PQntuples(r) && rc == 0; i++) {
        const char *k = PQgetvalue(r, i, 0);
        if (PQgetvalue(r, i, 1)[0] != 't') {
            snprintf(err, errlen, "column \"%.64s\" of %s is not in this record (an archive of a newer arbiter? "
                     "import it with that version)", k, t->name);
            rc = ARB_EUNSUPPORTED;
            break;
        }
        bool dropped = strcmp(k, "tournament_id") == 0;   /* set below for every row, key or not */
        for (int d = 0; d < 2 && t->drop[d]; d++)
            dropped |= strcmp(t->drop[d], k) == 0;
        if (dropped)
            continue;
        char *qk = PQescapeIdentifier(s->db, k, strlen(k));
        if (!qk) {
            rc = ARB_ENOMEM;
            break;
        }
        const map_col *m = NULL;
        for (int c = 0; c < 3 && t->map[c].col; c++)
            if (strcmp(t->map[c].col, k) == 0)
                m = &t->map[c];
        rc = arb_buf_printf(&cols, "%s%s", cols.len ? ", " : "", qk);
        if (rc == 0 && strcmp(k, "id") == 0 && t == &tables[0])
            rc = arb_buf_printf(&exprs, "%s$2::bigint", exprs.len ? ", " : "");
        else if (rc == 0 && m)
            rc = arb_buf_printf(&exprs, "%s(SELECT new FROM arb_idmap WHERE kind = '%c' AND old = r.%s)",
                                exprs.len ? ", " : "", m->kind, qk);
        else if (rc == 0)
            rc = arb_buf_printf(&exprs, "%sr.%s", exprs.len ? ", " : "", qk);
        PQfreemem(qk);
    }
    PQclear(r);
    /* every row of a tournament's table is the new tournament's, whatever
     * its JSON says or leaves out (a row without the key would otherwise
     * go in with NULL: an event of no tournament, injected) */
    if (rc == 0 && strcmp(t->where, OF_T) == 0)
        rc = arb_buf_printf(&cols, "%stournament_id", cols.len ? ", " : "")
                     || arb_buf_printf(&exprs, "%s$2::bigint", exprs.len ? ", " : "")
                 ? ARB_ENOMEM
                 : 0;
    /* new ids for the old ones this chunk brings (matches, disputes) */
    for (int c = 0; c < 3 && t->map[c].col && rc == 0; c++) {
        if (!t->map[c].premap)
            continue;
        const char *seq_table = t->map[c].kind == 'm' ? "matches" : "disputes";
        char pre[512];
        snprintf(pre, sizeof pre,
                 "INSERT INTO arb_idmap (kind, old, new) SELECT '%c', o, nextval(pg_get_serial_sequence('%s', 'id')) "
                 "FROM (SELECT DISTINCT r.%s AS o FROM jsonb_populate_recordset(NULL::%s, $1::jsonb) r "
                 "WHERE r.%s IS NOT NULL) x ON CONFLICT DO NOTHING",
                 t->map[c].kind, seq_table, t->map[c].col, t->name, t->map[c].col);
        rc = exec0(s, err, errlen, pre, 1, p);
    }
    if (rc == 0 && cols.len > 0) {
        rc = arb_buf_printf(&sql, "INSERT INTO %s (%s) SELECT %s FROM jsonb_populate_recordset(NULL::%s, $1::jsonb) "
                            "r WHERE $2::bigint IS NOT NULL ORDER BY ", t->name, arb_buf_str(&cols), arb_buf_str(&exprs), t->name);
        /* the order's columns as r's */
        char order[128], *save = NULL;
        snprintf(order, sizeof order, "%s", t->order);
        int n = 0;
        for (char *c = strtok_r(order, ", ", &save); c && rc == 0; c = strtok_r(NULL, ", ", &save))
            rc = arb_buf_printf(&sql, "%sr.%s", n++ ? ", " : "", c);
        const char *ip[] = {json, im->id};
        if (rc == 0)
            rc = exec0(s, err, errlen, arb_buf_str(&sql), 2, ip);
        else
            snprintf(err, errlen, "%s: a statement too long", t->name);
    } else if (rc && rc != ARB_EIO && rc != ARB_EUNSUPPORTED) {
        snprintf(err, errlen, "%s: out of memory", t->name);
    }
    arb_buf_release(&cols);
    arb_buf_release(&exprs);
    arb_buf_release(&sql);
    return rc;
}

/* A transcript as the record keeps it (016_transcripts.sql), compressed
 * (the caller checked it against its digest: tr_check_digest). */
static int import_transcript(store_import *im, const char *digest, const uint8_t *b, size_t len, char *err,
                             size_t errlen)
{
    if (len > ARB_MAX_TRANSCRIPT) {
        snprintf(err, errlen, "%zu bytes, over the %u of a transcript", len, ARB_MAX_TRANSCRIPT);
        return ARB_ETOOBIG;
    }
    return store__put_zstd(im->s, "INSERT INTO transcripts (digest, raw_size, codec, body) VALUES ($1, $2, 'zstd', "
                                  "$3) ON CONFLICT (digest) DO NOTHING", digest, b, len, err, errlen);
}

int store_import_member(store_import *im, const char *name, const uint8_t *data, size_t len, char *err, size_t errlen)
{
    char why[1024] = "";
    int rank, rc;
    const char *digest = NULL;
    if (strncmp(name, "programs/", 9) == 0 && hex64(name + 9)) {
        rank = RANK_PROGRAMS;
        digest = name + 9;
    } else if (strncmp(name, "transcripts/", 12) == 0 && hex64(name + 12)) {
        rank = RANK_TRANSCRIPTS;
        digest = name + 12;
    } else {
        rank = table_of(name);
        if (rank == RANK_PROGRAMS)
            rank = RANK_PROGRAMS + 1;   /* entrant_programs: after the programs */
    }
    if (im->failed) {
        snprintf(err, errlen, "%s: the import failed already", name);
        return ARB_ESTATE;
    }
    if (rank < 0) {
        snprintf(err, errlen, "%.100s: not a member of an arbiter archive", name);
        rc = ARB_EINVAL;
    } else if (rank < im->rank) {
        snprintf(err, errlen, "%s: out of order (the archive's members go tournament, tables, programs, "
                 "transcripts)", name);
        rc = ARB_EINVAL;
    } else if (rank > 0 && im->tid == 0) {
        snprintf(err, errlen, "%s: before the tournament's own row (record/tournaments.000001.json)", name);
        rc = ARB_EINVAL;
    } else if (rank == 0 && im->tid != 0) {
        snprintf(err, errlen, "%s: a second tournament", name);
        rc = ARB_EINVAL;
    } else if (digest) {
        rc = rank == RANK_PROGRAMS ? store_program_put(im->s, digest, data, len, why, sizeof why)
                                   : import_transcript(im, digest, data, len, why, sizeof why);
        const char *mp[] = {rank == RANK_PROGRAMS ? "p" : "t", digest};
        if (rc == 0)
            rc = exec0(im->s, why, sizeof why, "INSERT INTO arb_members (kind, digest) VALUES ($1, $2) "
                       "ON CONFLICT DO NOTHING", 2, mp);
        if (rc)
            snprintf(err, errlen, "%s: %s", name, why);
    } else if (memchr(data, 0, len)) {
        snprintf(err, errlen, "%s: a NUL byte in JSON text", name);
        rc = ARB_EINVAL;
    } else {
        /* text for PostgreSQL: a copy with its NUL (the member's bytes have none) */
        char *json = malloc(len + 1);
        if (!json) {
            snprintf(err, errlen, "out of memory");
            rc = ARB_ENOMEM;
        } else {
            memcpy(json, data, len);
            json[len] = 0;
            int t = rank > RANK_PROGRAMS ? RANK_PROGRAMS : rank;
            rc = rank == 0 ? import_tournament(im, json, why, sizeof why) : 0;
            if (rc == 0)
                rc = import_rows(im, &tables[t], json, why, sizeof why);
            const char *jp[] = {json};
            if (rc == 0 && strcmp(tables[t].name, "transcripts_pruned") == 0)
                rc = exec0(im->s, why, sizeof why, "INSERT INTO arb_members (kind, digest) SELECT 'x', r.digest "
                           "FROM jsonb_populate_recordset(NULL::transcripts_pruned, $1::jsonb) r "
                           "WHERE r.digest IS NOT NULL ON CONFLICT DO NOTHING", 1, jp);
            free(json);
            if (rc)
                snprintf(err, errlen, "%s: %s", name, why);
        }
    }
    if (rc)
        im->failed = true;
    else
        im->rank = rank;
    return rc;
}

const char *store_import_name(const store_import *im)
{
    return im->name;
}

/* One rule over the imported rows: query gives a count of those that
 * break it and one example; 0, or ARB_EINVAL with what (the example). */
static int import_rule(store_import *im, const char *query, const char *what, char *err, size_t errlen)
{
    char bp[8], ap[8];
    snprintf(bp, sizeof bp, "%d", ARB_BUNDLE_MAX_PATH);
    snprintf(ap, sizeof ap, "%d", ARB_MAX_BOT_ARGS);
    const char *p[] = {im->id, bp, ap};
    PGresult *r = q(im->s, err, errlen, query, 3, p);
    if (!r)
        return ARB_EIO;
    int rc = 0;
    if (strcmp(PQgetvalue(r, 0, 0), "0") != 0) {
        snprintf(err, errlen, "%s rows %s (%.100s): import refused", PQgetvalue(r, 0, 0), what, PQgetvalue(r, 0, 1));
        rc = ARB_EINVAL;
    }
    PQclear(r);
    return rc;
}

/* What the rows may name once all are in: nothing of this record's that
 * the archive did not bring, nothing of the exporting host's.
 *  - a transcript path is a file of the exporting host: it means nothing
 *    here (and a hostile one names /etc/shadow or a FIFO): dropped, the
 *    readers take the transcript from the record by its digest;
 *  - every match's and superseded result's digest has its transcript in
 *    the archive: else the rows would borrow the transcript another
 *    tournament of this record has under that digest (a pruned one
 *    included: the archive cannot show it);
 *  - every entrant's program is one of the archive's programs/, its paths
 *    those a command may name (bundle_word_path: relative, components of
 *    [A-Za-z0-9._+-], neither "." nor "..", at most ARB_BUNDLE_MAX_PATH),
 *    its argument indexes within a command's ARB_MAX_BOT_ARGS. */
static int import_check(store_import *im, const char *archive_sha, char *err, size_t errlen)
{
    int rc = exec0(im->s, err, errlen, "UPDATE matches SET transcript = NULL WHERE tournament_id = $1 "
                                       "AND transcript IS NOT NULL", 1, (const char *[]){im->id});
    if (rc == 0)
        rc = exec0(im->s, err, errlen, "UPDATE superseded SET snapshot = jsonb_set(snapshot, '{match,transcript}', "
                   "'null') WHERE tournament_id = $1 AND snapshot->'match' ? 'transcript'", 1,
                   (const char *[]){im->id});
    if (rc == 0)
        rc = import_rule(im, "SELECT count(*), min(d) FROM (SELECT digest AS d FROM matches WHERE tournament_id = $1 "
                         "UNION ALL SELECT snapshot->'match'->>'digest' FROM superseded WHERE tournament_id = $1) x "
                         "WHERE d IS NOT NULL AND d NOT IN (SELECT digest FROM arb_members WHERE kind = 't') "
                         "AND (d NOT IN (SELECT digest FROM arb_members WHERE kind = 'x') "
                         "OR d IN (SELECT digest FROM transcripts)) AND $2::int > 0 AND $3::int > 0",
                         "of matches or superseded results name a transcript digest the archive does not hold "
                         "(transcripts/DIGEST) nor says was pruned (of a transcript this record does not hold)",
                         err, errlen);
    if (rc == 0)
        rc = import_rule(im, "SELECT count(*), min(digest) FROM entrant_programs WHERE tournament_id = $1 "
                         "AND digest NOT IN (SELECT digest FROM arb_members WHERE kind = 'p') "
                         "AND $2::int > 0 AND $3::int > 0",
                         "of entrant_programs name a program the archive does not hold (programs/DIGEST)", err,
                         errlen);
    if (rc == 0)
        rc = import_rule(im, "SELECT count(*), min(e.entrant || ': ' || coalesce(p, 'NULL'))"
                         " FROM entrant_programs e, unnest(e.paths) p WHERE e.tournament_id = $1 AND (p IS NULL "
                         "OR length(p) > $2::int OR p !~ '^[A-Za-z0-9._+-]+(/[A-Za-z0-9._+-]+)*$' "
                         "OR p ~ '(^|/)[.][.]?(/|$)') AND $3::int > 0",
                         "of entrant_programs hold a path no bundle may hold (relative, [A-Za-z0-9._+-] "
                         "components, no . or ..)", err, errlen);
    if (rc == 0)
        rc = import_rule(im, "SELECT count(*), min(e.entrant || ': ' || coalesce(a::text, 'NULL'))"
                         " FROM entrant_programs e, unnest(e.argi) a WHERE e.tournament_id = $1 AND (a IS NULL "
                         "OR a < 0 OR a >= $3::int OR cardinality(e.argi) > $3::int) AND $2::int > 0",
                         "of entrant_programs hold an argument index outside a command's", err, errlen);
    /* the import said on the tournament: its signatures prove only that the
     * keys in the archive signed them (docs/operations.md, "Archiving") */
    const char *ep[] = {im->id, archive_sha ? archive_sha : "unknown"};
    if (rc == 0)
        rc = exec0(im->s, err, errlen,
                   "INSERT INTO events (tournament_id, kind, detail) SELECT $1::bigint, 'imported', "
                   "'from an archive of SHA-256 ' || $2 || '; transcripts signed by keys from the archive: ' || "
                   "coalesce((SELECT string_agg(k, ', ' ORDER BY k) FROM (SELECT signer_key AS k FROM matches "
                   "WHERE tournament_id = $1::bigint UNION SELECT snapshot->'match'->>'signer_key' FROM superseded "
                   "WHERE tournament_id = $1::bigint) x WHERE k IS NOT NULL), 'none')", 2, ep);
    return rc;
}

int store_import_end(store_import *im, bool commit, const char *archive_sha, int64_t *tid, char *err,
                     size_t errlen)
{
    if (!im)
        return ARB_EINVAL;
    int rc = 0;
    *tid = 0;
    if (im->failed) {
        rollback(im->s);
        rc = ARB_ESTATE;
    } else if (im->tid == 0) {
        rollback(im->s);
        snprintf(err, errlen, "the archive holds no tournament (record/tournaments.000001.json)");
        rc = ARB_EINVAL;
    } else if ((rc = import_check(im, archive_sha, err, errlen)) != 0 || !commit) {
        rollback(im->s);
    } else if ((rc = exec0(im->s, err, errlen, "COMMIT", 0, NULL)) == 0) {
        *tid = im->tid;
    }
    free(im);
    return rc;
}
