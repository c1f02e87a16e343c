/* store_program.c — the entrants' programs in the record (store.h,
 * 017_programs.sql): bundles by digest, compressed with zstd and checked
 * against their digest when read, and which bundle each entrant of a
 * tournament plays with where its files go in the command. */
#include "store_int.h"
#include "arb_error.h"
#include "arb_kdf.h"

#include <inttypes.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* zstd's level for what the record keeps: its default, a few times
 * smaller than a program's files and fast enough to pack at every start. */
#define STORE_ZSTD_LEVEL 3

PGresult *store__qbin(store *s, char *err, size_t errlen, const char *sql, int n, const char *const *params,
                      const int *lengths, const int *binary)
{
    return store__checked(s, PQexecParams(s->db, sql, n, NULL, params, lengths, binary, 0), err, errlen);
}

int store__zstd_pack(const uint8_t *b, size_t len, uint8_t **out, size_t *outlen, char *err, size_t errlen)
{
    size_t cap = ZSTD_compressBound(len);
    uint8_t *z = malloc(cap ? cap : 1);
    if (!z) {
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    size_t n = ZSTD_compress(z, cap, b, len, STORE_ZSTD_LEVEL);
    if (ZSTD_isError(n)) {
        snprintf(err, errlen, "zstd: %s", ZSTD_getErrorName(n));
        free(z);
        return ARB_EIO;
    }
    *out = z;
    *outlen = n;
    return 0;
}

int store__zstd_unpack(const uint8_t *z, size_t zlen, size_t size, size_t cap, uint8_t **out, char *err,
                       size_t errlen)
{
    if (size > cap) {
        snprintf(err, errlen, "%zu bytes uncompressed, over the %zu allowed", size, cap);
        return ARB_ETOOBIG;
    }
    unsigned long long framed = ZSTD_getFrameContentSize(z, zlen);
    if (framed != (unsigned long long)size) {
        snprintf(err, errlen, "a zstd frame of %s bytes, the record says %zu",
                 framed == ZSTD_CONTENTSIZE_UNKNOWN ? "unknown" : framed == ZSTD_CONTENTSIZE_ERROR ? "no" : "other",
                 size);
        return ARB_ECORRUPT;
    }
    uint8_t *b = malloc(size ? size : 1);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    size_t n = ZSTD_decompress(b, size, z, zlen);
    if (ZSTD_isError(n) || n != size) {
        snprintf(err, errlen, "zstd: %s", ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short");
        free(b);
        return ARB_ECORRUPT;
    }
    *out = b;
    return 0;
}

int store__put_zstd(store *s, const char *sql, const char *digest, const uint8_t *b, size_t len, char *err,
                    size_t errlen)
{
    uint8_t *z;
    size_t zlen;
    int rc = store__zstd_pack(b, len, &z, &zlen, err, errlen);
    if (rc)
        return rc;
    char size[24];
    snprintf(size, sizeof size, "%zu", len);
    const char *p[] = {digest, size, (const char *)z};
    const int lens[] = {0, 0, (int)zlen}, bin[] = {0, 0, 1};
    PGresult *r = store__qbin(s, err, errlen, sql, 3, p, lens, bin);
    free(z);
    PQclear(r);
    return r ? 0 : ARB_EIO;
}

int store__blob(const PGresult *r, int col, size_t cap, uint8_t **out, size_t *len, char *err, size_t errlen)
{
    /* binary: size an int8 in network order, codec text */
    uint64_t size = 0;
    const uint8_t *sz = (const uint8_t *)PQgetvalue(r, 0, col);
    for (int i = 0; i < 8 && PQgetlength(r, 0, col) == 8; i++)
        size = size << 8 | sz[i];
    const char *codec = PQgetvalue(r, 0, col + 1);
    const uint8_t *body = (const uint8_t *)PQgetvalue(r, 0, col + 2);
    size_t blen = (size_t)PQgetlength(r, 0, col + 2);
    *out = NULL;
    *len = (size_t)size;
    if (PQgetlength(r, 0, col + 1) == 4 && strncmp(codec, "zstd", 4) == 0)
        return store__zstd_unpack(body, blen, (size_t)size, cap, out, err, errlen);
    if (size != blen || blen > cap) {
        snprintf(err, errlen, "%zu bytes stored, %" PRIu64 " said (at most %zu)", blen, size, cap);
        return size != blen ? ARB_ECORRUPT : ARB_ETOOBIG;
    }
    if (!(*out = malloc(blen ? blen : 1))) {
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    memcpy(*out, body, blen);
    return 0;
}

static bool hex64(const char *d)
{
    if (strlen(d) != 64)
        return false;
    for (const char *c = d; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f')))
            return false;
    return true;
}

int store_program_put(store *s, const char *digest, const uint8_t *b, size_t len, char *err, size_t errlen)
{
    if (!hex64(digest) || len == 0 || len > ARB_WIRE_MAX_BUNDLE) {
        snprintf(err, errlen, "program %.64s: not a digest, or %zu bytes (1..%zu)", digest, len, (size_t)ARB_WIRE_MAX_BUNDLE);
        return ARB_EINVAL;
    }
    char got[65];
    arb_sha256_hex(b, len, got);
    if (strcmp(got, digest) != 0) {
        snprintf(err, errlen, "program %.12s: its bytes have digest %.12s", digest, got);
        return ARB_ECORRUPT;
    }
    return store__put_zstd(s, "INSERT INTO programs (digest, size, codec, body) VALUES ($1, $2, 'zstd', $3) "
                              "ON CONFLICT (digest) DO NOTHING", digest, b, len, err, errlen);
}

int store_program_get(store *s, const char *digest, uint8_t **out, size_t *len, char *err, size_t errlen)
{
    *out = NULL;
    *len = 0;
    if (!hex64(digest)) {
        snprintf(err, errlen, "not a program digest");
        return ARB_EINVAL;
    }
    const char *p[] = {digest};
    const int bin[] = {0};
    /* the body as bytes (a binary result), the rest as text */
    PGresult *r = store__checked(s, PQexecParams(s->db, "SELECT size, codec, body FROM programs WHERE digest = $1", 1,
                                                 NULL, p, NULL, bin, 1), err, errlen);
    if (!r)
        return ARB_EIO;
    if (PQntuples(r) == 0) {
        PQclear(r);
        snprintf(err, errlen, "program %.12s is not in the record", digest);
        return 0;
    }
    uint8_t *b = NULL;
    size_t blen = 0;
    int rc = store__blob(r, 0, ARB_WIRE_MAX_BUNDLE, &b, &blen, err, errlen);
    PQclear(r);
    if (rc) {
        char why[256];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "program %.12s in the record: %s", digest, why);
        return rc;
    }
    char got[65];
    arb_sha256_hex(b, blen, got);
    if (strcmp(got, digest) != 0) {
        snprintf(err, errlen, "program %.12s in the record has digest %.12s: the record is corrupt", digest, got);
        free(b);
        return ARB_ECORRUPT;
    }
    *out = b;
    *len = blen;
    return 1;
}

int store_entrant_program_put(store *s, int64_t tid, int entrant, const store_entrant_prog *pr, char *err,
                              size_t errlen)
{
    arb_buf argi, paths;
    arb_buf_init(&argi, 4096);
    arb_buf_init(&paths, 64u << 10);
    int rc = 0;
    for (int i = 0; !rc && i < pr->nfiles; i++)
        rc = store__arr_put(&argi, "%d", pr->argi[i]) || store__arr_text(&paths, pr->path[i]) ? ARB_ENOMEM : 0;
    if (!rc)
        rc = store__arr_close(&argi) || store__arr_close(&paths) ? ARB_ENOMEM : 0;
    if (rc) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    char id[24], idx[16];
    snprintf(id, sizeof id, "%" PRId64, tid);
    snprintf(idx, sizeof idx, "%d", entrant);
    const char *p[] = {id, idx, pr->digest, arb_buf_str(&argi), arb_buf_str(&paths)};
    /* the first start's program stays the tournament's (017_programs.sql) */
    rc = exec0(s, err, errlen,
               "INSERT INTO entrant_programs (tournament_id, entrant, digest, argi, paths) "
               "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (tournament_id, entrant) DO NOTHING", 5, p);
out:
    arb_buf_release(&argi);
    arb_buf_release(&paths);
    return rc;
}

int store_program_recorded(store *s, const char *name, const char *config_digest, int entrant)
{
    char idx[16], err[256];
    snprintf(idx, sizeof idx, "%d", entrant);
    const char *p[] = {name, config_digest, idx};
    PGresult *r = q(s, err, sizeof err,
                    "SELECT count(*) FROM entrant_programs WHERE entrant = $3 AND tournament_id = "
                    "(SELECT max(id) FROM tournaments WHERE name = $1 AND config_digest = $2)", 3, p);
    if (!r)
        return ARB_EIO;
    int n = PQgetvalue(r, 0, 0)[0] == '1';
    PQclear(r);
    return n;
}

int store_entrant_program_get(store *s, int64_t tid, int entrant, store_entrant_prog *pr, char *err, size_t errlen)
{
    memset(pr, 0, sizeof *pr);
    char id[24], idx[16];
    snprintf(id, sizeof id, "%" PRId64, tid);
    snprintf(idx, sizeof idx, "%d", entrant);
    const char *p[] = {id, idx};
    /* one row per file, in the order recorded */
    PGresult *r = q(s, err, errlen,
                    "SELECT e.digest, a.i, a.path FROM entrant_programs e, "
                    "unnest(e.argi, e.paths) WITH ORDINALITY AS a(i, path, k) "
                    "WHERE e.tournament_id = $1 AND e.entrant = $2 ORDER BY a.k", 2, p);
    if (!r)
        return ARB_EIO;
    int n = PQntuples(r), rc = n > 0;
    if (n > ARB_MAX_BOT_ARGS) {
        snprintf(err, errlen, "entrant %d's program names %d files in its command, over %d", entrant, n,
                 ARB_MAX_BOT_ARGS);
        rc = ARB_ECORRUPT;
    }
    for (int i = 0; rc == 1 && i < n; i++) {
        const char *path = PQgetvalue(r, i, 2);
        long argi = strtol(PQgetvalue(r, i, 1), NULL, 10);
        if (argi < 0 || argi >= ARB_MAX_BOT_ARGS || strlen(path) > ARB_BUNDLE_MAX_PATH) {
            snprintf(err, errlen, "entrant %d's program: argument %ld, path of %zu bytes", entrant, argi,
                     strlen(path));
            rc = ARB_ECORRUPT;
            break;
        }
        pr->argi[i] = (int)argi;
        snprintf(pr->path[i], sizeof pr->path[i], "%s", path);
        snprintf(pr->digest, sizeof pr->digest, "%s", PQgetvalue(r, i, 0));
        pr->nfiles = i + 1;
    }
    PQclear(r);
    return rc;
}
