/* cmd_archive.c — `arbiter export NAME -o FILE` and `arbiter import FILE`:
 * one tournament of the record as one file, to keep after the competition
 * or to load into another record (docs/operations.md, "Archiving a
 * competition"; docs/cli.md).
 *
 * The file is a tar archive (POSIX pax), compressed with zstd, written and
 * read with libarchive: a format any machine can open years later without
 * arbiter (`tar --zstd -tvf FILE`), from a library that has read hostile
 * tars for two decades and is fuzzed continuously (OSS-Fuzz), where our
 * own reader would be one more parser to get right. Its members, in order
 * (store_export):
 *
 *   record/TABLE.NNNNNN.json   the tournament's rows, table by table
 *   programs/DIGEST            each program bundle its entrants play
 *   record/entrant_programs.NNNNNN.json   (after transcripts_pruned)
 *   transcripts/DIGEST         each transcript the record holds
 *   MANIFEST                   last: "arbiter-archive 1", the schema
 *                              version, the tournament, then one line per
 *                              member above: SHA-256, size, name
 *
 * Import trusts none of it. A first pass reads the whole archive and
 * writes nothing: only regular files, only the names above, each within
 * its size limit (arb_limits.h) and the whole, headers counted, within
 * ARB_ARCHIVE_UNPACK_RATIO times the file's size (a bomb stops early), and the members exactly those the manifest lists,
 * in its order, with its sizes and hashes; a truncated archive or one
 * with a member added, dropped, changed or moved is refused there. The
 * second pass reads it again into one transaction (store_import_*), each
 * member checked against the manifest again, programs and transcripts
 * against their digests, rows against the record's columns, then what
 * the rows name against what the archive brought (store_import_end): any
 * failure rolls everything back. Export writes a fresh file beside -o
 * and renames it into place (arb_out, arb_file.h). */
#include "cli.h"
#include "arb_error.h"
#include "arb_file.h"
#include "arb_kdf.h"
#include "arb_num.h"
#include "arb_text.h"
#include "store.h"
#include "transcript.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <getopt.h>
#include <sodium.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ARCHIVE_MAGIC "arbiter-archive 1"
#define MEMBER_NAME_MAX 96
#define MANIFEST_MIN_LINE 86   /* a SHA-256, a size, record/X.000001.json, spaces and newline */   /* "transcripts/" and 64 hex digits, with room */

/* ---- export --------------------------------------------------------------- */

static void export_usage(FILE *f)
{
    fprintf(f,
            "usage: arbiter export NAME -o FILE [--state DIR | --db CONNINFO]\n\n"
            "Writes tournament NAME (\"#ID\" for one by id) as one archive FILE (tar, zstd): its\n"
            "record (tournament, entrants, teams, rounds, matches, seats, sides, deals,\n"
            "penalties, ratings, rating history, ladder entries, disputes, superseded\n"
            "results, placements, events), its programs, its transcripts in the record,\n"
            "and its secret once the tournament is over; a MANIFEST with the SHA-256 of\n"
            "every member. arbiter import loads it into another record.\n");
}

typedef struct writer {
    struct archive *a;
    time_t when;
    FILE *manifest;          /* the manifest's lines, written last */
    char *mtext;
    size_t mlen;
    long members;
} writer;

static int write_member(struct archive *a, const char *name, const void *data, size_t len, time_t when, char *err,
                        size_t errlen)
{
    struct archive_entry *e = archive_entry_new();
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return ARB_ENOMEM;
    }
    archive_entry_set_pathname(e, name);
    archive_entry_set_size(e, (la_int64_t)len);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_mtime(e, when, 0);
    int rc = archive_write_header(a, e) == ARCHIVE_OK ? 0 : ARB_EIO;
    const uint8_t *p = data;
    size_t off = 0;
    while (rc == 0 && off < len) {
        la_ssize_t w = archive_write_data(a, p + off, len - off);
        if (w <= 0)
            rc = ARB_EIO;
        else
            off += (size_t)w;
    }
    if (rc)
        snprintf(err, errlen, "%s: %s", name, archive_error_string(a) ? archive_error_string(a) : "write failed");
    archive_entry_free(e);
    return rc;
}

/* A programs/DIGEST member: the bundle of that digest; a
 * transcripts/DIGEST member: the transcript its name says (its digest
 * record covers the bytes before it, docs/transcripts.md). */
static int check_digest(const char *name, const void *data, size_t len, char *err, size_t errlen)
{
    char hex[65] = "", why[256] = "";
    if (strncmp(name, "programs/", 9) == 0) {
        arb_sha256_hex(data, len, hex);
        if (strcmp(hex, name + 9) == 0)
            return 0;
        snprintf(err, errlen, "%s: not the program of that digest (its bytes have digest %.16s…)", name, hex);
        return ARB_ECORRUPT;
    }
    if (strncmp(name, "transcripts/", 12) != 0)
        return 0;
    int rc = tr_check_digest(data, len, hex, why, sizeof why);
    if (rc == 0 && strcmp(hex, name + 12) != 0)
        rc = ARB_ECORRUPT;
    if (rc)
        snprintf(err, errlen, "%s: not the transcript of that digest (%s)", name, why[0] ? why : hex);
    return rc;
}

static int sink(void *ctx, const char *name, const void *data, size_t len, char *err, size_t errlen)
{
    writer *w = ctx;
    char sha[65];
    int rc = check_digest(name, data, len, err, errlen);
    if (rc)
        return rc;
    arb_sha256_hex(data, len, sha);
    if (++w->members > ARB_ARCHIVE_MAX_MEMBERS) {
        snprintf(err, errlen, "more than %u members: over what an import reads", ARB_ARCHIVE_MAX_MEMBERS);
        return ARB_ETOOBIG;
    }
    fprintf(w->manifest, "%s %zu %s\n", sha, len, name);
    return write_member(w->a, name, data, len, w->when, err, errlen);
}

int cmd_export(int argc, char **argv)
{
    static const struct option lo[] = {
        {"help", no_argument, NULL, 'h'},       {"output", required_argument, NULL, 'o'},
        {"state", required_argument, NULL, 's'}, {"db", required_argument, NULL, 'd'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL, *state = "arbiter-state", *db = NULL;
    int opt;
    cli_opts_begin();
    while ((opt = cli_getopt("export", argc, argv, ":ho:", lo)) != -1) {
        switch (opt) {
        case 'h': export_usage(stdout); return CLI_EXIT_OK;
        case 'o': out = optarg; break;
        case 's': state = optarg; break;
        case 'd': db = optarg; break;
        default: export_usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (optind != argc - 1 || !out) {
        fprintf(stderr, "arbiter: export: expected NAME and -o FILE\n");
        export_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[optind];
    char err[1024], term[300];
    db_place place;
    int rc = cli_open_record(&place, state, db, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: %s\n", err);
        return rc == ARB_ENOTFOUND ? CLI_EXIT_NORECORD : CLI_EXIT_USAGE;
    }
    store *st = store_open(place.conninfo, err, sizeof err);
    if (!st) {
        cli_say_unreachable("export", err);
        cli_close_place(&place);
        return CLI_EXIT_USAGE;
    }
    int exit_now = cli_record_ready("export", st, &place);
    if (exit_now >= 0)
        return exit_now;
    int status = CLI_EXIT_FAIL;
    int64_t tid;
    uint64_t seed;
    bool revealed;
    writer w = {.when = time(NULL)};
    arb_out file = {.fd = -1, .dirfd = -1};
    if (store_tournament_named(st, name, &tid, &seed, &revealed) != 1) {
        fprintf(stderr, "arbiter: export: no tournament named \"%s\" in the record\n", arb_term(name, term, sizeof term));
        status = CLI_EXIT_NORECORD;
        goto out;
    }
    /* written beside FILE under a fresh name and renamed over it once
     * whole (arb_out: never half an archive under its name, never through
     * a link planted at FILE or a directory another user can swap) */
    if ((rc = arb_out_open(&file, out, 0600, err, sizeof err)) != 0) {
        fprintf(stderr, "arbiter: export: -o %s\n", arb_term(err, term, sizeof term));
        status = rc == ARB_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
        goto out;
    }
    w.a = archive_write_new();
    w.manifest = open_memstream(&w.mtext, &w.mlen);
    if (!w.a || !w.manifest || archive_write_set_format_pax_restricted(w.a) != ARCHIVE_OK
        || archive_write_add_filter_zstd(w.a) != ARCHIVE_OK || archive_write_open_fd(w.a, file.fd) != ARCHIVE_OK) {
        fprintf(stderr, "arbiter: export: %s: %s\n", arb_term(out, term, sizeof term),
                w.a && archive_error_string(w.a) ? archive_error_string(w.a) : strerror(errno));
        goto out;
    }
    store_export_info info;
    rc = store_export(st, tid, sink, &w, &info, err, sizeof err);
    if (rc == 0) {
        fflush(w.manifest);
        char head[512];
        int hn = snprintf(head, sizeof head, "%s\nschema %d\nstate %s\nsecret %s\nmembers %ld\ntournament %s\n",
                          ARCHIVE_MAGIC, info.schema, info.state, info.revealed ? "included" : "withheld",
                          w.members, info.name);
        char *whole = malloc((size_t)hn + w.mlen + 1);
        if (!whole) {
            snprintf(err, sizeof err, "out of memory");
            rc = ARB_ENOMEM;
        } else {
            memcpy(whole, head, (size_t)hn);
            memcpy(whole + hn, w.mtext, w.mlen);
            rc = write_member(w.a, "MANIFEST", whole, (size_t)hn + w.mlen, w.when, err, sizeof err);
            free(whole);
        }
    }
    if (rc == 0 && archive_write_close(w.a) != ARCHIVE_OK) {
        snprintf(err, sizeof err, "%s", archive_error_string(w.a) ? archive_error_string(w.a) : "close failed");
        rc = ARB_EIO;
    }
    if (rc == 0)   /* libarchive leaves an fd it was given open: fsync'ed, closed, renamed here */
        rc = arb_out_commit(&file, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: export: %s\n", arb_term(err, term, sizeof term));
        goto out;
    }
    printf("exported %s (%s): %ld members, %d programs, %d transcripts, secret %s -> %s\n",
           arb_term(info.name, term, sizeof term), info.state, w.members, info.programs, info.transcripts,
           info.revealed ? "included" : "withheld (the tournament is not over)", out);
    status = CLI_EXIT_OK;
out:
    if (w.a)
        archive_write_free(w.a);
    arb_out_abort(&file);   /* nothing left of a failed export; after commit nothing to do */
    if (w.manifest)
        fclose(w.manifest);
    free(w.mtext);
    store_close(st);
    cli_close_place(&place);
    return status;
}

/* ---- import --------------------------------------------------------------- */

static void import_usage(FILE *f)
{
    fprintf(f,
            "usage: arbiter import FILE [--check] [--state DIR | --db CONNINFO]\n\n"
            "Loads a tournament archive (arbiter export) into this record, in one transaction:\n"
            "every member checked first (its name, its size, its SHA-256 against the\n"
            "MANIFEST, programs and transcripts against their digests), new ids drawn, a\n"
            "tournament whose name this record has already refused. --check: everything\n"
            "done and checked, then rolled back (nothing written).\n");
}

/* One line of the manifest. */
typedef struct mentry {
    char   name[MEMBER_NAME_MAX + 1];
    char   sha[65];
    size_t size;
} mentry;

typedef struct manifest {
    int     schema;
    long    members;     /* as its header says */
    char    tournament[ARB_TN_MAX_NAME + 1];
    mentry *e;
    long    n;
} manifest;

/* A member's name: one of those an export writes, and its size limit; 0
 * when it is none (a path trick, a name of something else). */
static size_t member_cap(const char *name)
{
    size_t n = strlen(name);
    if (strcmp(name, "MANIFEST") == 0)
        return (size_t)ARB_ARCHIVE_MAX_MEMBERS * ARB_ARCHIVE_MAX_LINE;
    if (n == 9 + 64 && strncmp(name, "programs/", 9) == 0 && strspn(name + 9, "0123456789abcdef") == 64)
        return ARB_WIRE_MAX_BUNDLE;
    if (n == 12 + 64 && strncmp(name, "transcripts/", 12) == 0 && strspn(name + 12, "0123456789abcdef") == 64)
        return ARB_MAX_TRANSCRIPT;
    /* record/TABLE.NNNNNN.json, TABLE of [a-z_] */
    size_t t = strspn(name + (n > 7 ? 7 : n), "abcdefghijklmnopqrstuvwxyz_");
    if (n > 7 && strncmp(name, "record/", 7) == 0 && t > 0 && t <= 32 && n == 7 + t + 12 && name[7 + t] == '.'
        && strspn(name + 8 + t, "0123456789") == 6 && strcmp(name + 14 + t, ".json") == 0)
        return ARB_ARCHIVE_MAX_RECORD_MEMBER;
    return 0;
}

/* The next member, whole: 1 with *data (malloc'ed) and its name, 0 at the
 * end, < 0 with a message (and what is wrong with it named). */
static int next_member(struct archive *a, char name[MEMBER_NAME_MAX + 1], uint8_t **data, size_t *len,
                       uint64_t limit, char *err, size_t errlen)
{
    struct archive_entry *e;
    *data = NULL;
    int r = archive_read_next_header(a, &e);
    if (r == ARCHIVE_EOF)
        return 0;
    if (r != ARCHIVE_OK) {
        snprintf(err, errlen, "not a whole archive: %s", archive_error_string(a) ? archive_error_string(a) : "?");
        return ARB_ECORRUPT;
    }
    const char *path = archive_entry_pathname(e);
    char term[200];
    if (!path || strlen(path) > MEMBER_NAME_MAX || member_cap(path) == 0) {
        snprintf(err, errlen, "member \"%s\": not a name an arbiter archive holds (record/, programs/, "
                 "transcripts/, MANIFEST)", arb_term(path ? path : "", term, sizeof term));
        return ARB_EINVAL;
    }
    snprintf(name, MEMBER_NAME_MAX + 1, "%s", path);
    if (archive_entry_filetype(e) != AE_IFREG || archive_entry_hardlink(e) || archive_entry_symlink(e)) {
        snprintf(err, errlen, "member %s: not a regular file", name);
        return ARB_EINVAL;
    }
    size_t cap = member_cap(name);
    la_int64_t size = archive_entry_size_is_set(e) ? archive_entry_size(e) : -1;
    if (size < 0 || (uint64_t)size > cap) {
        snprintf(err, errlen, "member %s: %lld bytes, over the %zu a member of its kind may hold", name,
                 (long long)size, cap);
        return ARB_ETOOBIG;
    }
    /* what was decompressed so far (headers and padding included), and this member */
    la_int64_t unpacked = archive_filter_bytes(a, 0);
    if (unpacked < 0 || (uint64_t)unpacked + (uint64_t)size > limit) {
        snprintf(err, errlen, "member %s: the archive unpacks to more than %llu bytes (%u times its size and "
                 "%llu MiB: a decompression bomb?)", name, (unsigned long long)limit, ARB_ARCHIVE_UNPACK_RATIO,
                 (unsigned long long)(ARB_ARCHIVE_UNPACK_SLACK >> 20));
        return ARB_ETOOBIG;
    }
    uint8_t *b = malloc((size_t)size + 1);
    if (!b) {
        snprintf(err, errlen, "member %s: out of memory", name);
        return ARB_ENOMEM;
    }
    size_t got = 0;
    for (;;) {   /* never more than the header said: a longer body is an error of libarchive's */
        la_ssize_t n = archive_read_data(a, b + got, (size_t)size - got + 1);
        if (n < 0) {
            snprintf(err, errlen, "member %s: %s", name, archive_error_string(a) ? archive_error_string(a) : "?");
            free(b);
            return ARB_ECORRUPT;
        }
        if (n == 0)
            break;
        got += (size_t)n;
        if (got > (size_t)size) {
            snprintf(err, errlen, "member %s: longer than its header says", name);
            free(b);
            return ARB_ECORRUPT;
        }
    }
    if (got != (size_t)size) {
        snprintf(err, errlen, "member %s: %zu of its %lld bytes (truncated)", name, got, (long long)size);
        free(b);
        return ARB_ECORRUPT;
    }
    b[got] = 0;
    *data = b;
    *len = got;
    return 1;
}

/* What the archive at path may unpack to (ARB_ARCHIVE_UNPACK_RATIO). */
static uint64_t unpack_limit(const char *path)
{
    struct stat st;
    uint64_t size = stat(path, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
    uint64_t lim = size > ARB_ARCHIVE_MAX_BYTES / ARB_ARCHIVE_UNPACK_RATIO
                       ? ARB_ARCHIVE_MAX_BYTES
                       : size * ARB_ARCHIVE_UNPACK_RATIO + ARB_ARCHIVE_UNPACK_SLACK;
    return lim < ARB_ARCHIVE_MAX_BYTES ? lim : ARB_ARCHIVE_MAX_BYTES;
}

/* The SHA-256 of the archive file as hex: 0, or ARB_EIO with the cause. */
static int file_sha256(const char *path, char hex[65], char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s", strerror(errno));
        return ARB_EIO;
    }
    crypto_hash_sha256_state st;
    crypto_hash_sha256_init(&st);
    uint8_t buf[1 << 16], h[crypto_hash_sha256_BYTES];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        crypto_hash_sha256_update(&st, buf, n);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "read failed");
        return ARB_EIO;
    }
    crypto_hash_sha256_final(&st, h);
    arb_hex(h, sizeof h, hex);
    return 0;
}

static struct archive *open_archive(const char *path, char *err, size_t errlen)
{
    struct archive *a = archive_read_new();
    if (!a) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    /* tar only, plain or zstd: nothing else is ours */
    archive_read_support_format_tar(a);
    archive_read_support_filter_zstd(a);
    if (archive_read_open_filename(a, path, 1 << 16) != ARCHIVE_OK) {
        snprintf(err, errlen, "not an arbiter archive: %s", archive_error_string(a) ? archive_error_string(a)
                                                                                   : strerror(errno));
        archive_read_free(a);
        return NULL;
    }
    return a;
}

/* The manifest's text into m: its header, then its members' lines. */
static int parse_manifest(char *text, size_t len, manifest *m, char *err, size_t errlen)
{
    long line = 0;
    char *save = NULL;
    if (memchr(text, 0, len)) {
        snprintf(err, errlen, "MANIFEST: a NUL byte");
        return ARB_ECORRUPT;
    }
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        line++;
        if (strlen(l) > ARB_ARCHIVE_MAX_LINE) {
            snprintf(err, errlen, "MANIFEST:%ld: longer than %d bytes", line, ARB_ARCHIVE_MAX_LINE);
            return ARB_ECORRUPT;
        }
        if (line == 1) {
            if (strcmp(l, ARCHIVE_MAGIC) != 0) {
                snprintf(err, errlen, "MANIFEST:1: not \"%s\" (not an arbiter archive, or of another version)",
                         ARCHIVE_MAGIC);
                return ARB_EUNSUPPORTED;
            }
            continue;
        }
        char sha[65], name[MEMBER_NAME_MAX + 1];
        unsigned long long size;
        int used = 0;
        if (strncmp(l, "schema ", 7) == 0) {
            m->schema = (int)arb_num_or(l + 7, -1);
        } else if (strncmp(l, "members ", 8) == 0) {
            long long n = -1;
            if (arb_parse_ll(l + 8, 0, ARB_ARCHIVE_MAX_MEMBERS, &n) != 0) {
                snprintf(err, errlen, "MANIFEST:%ld: %s members, over the %u an archive may hold", line, l + 8,
                         ARB_ARCHIVE_MAX_MEMBERS);
                return ARB_ETOOBIG;
            }
            if ((size_t)n > len / MANIFEST_MIN_LINE) {
                snprintf(err, errlen, "MANIFEST:%ld: %lld members, more than its %zu bytes can list", line, n, len);
                return ARB_ECORRUPT;
            }
            m->members = (long)n;
            free(m->e);
            m->e = calloc((size_t)n + 1, sizeof *m->e);
            if (!m->e) {
                snprintf(err, errlen, "out of memory");
                return ARB_ENOMEM;
            }
        } else if (strncmp(l, "tournament ", 11) == 0) {
            snprintf(m->tournament, sizeof m->tournament, "%s", l + 11);
        } else if (strncmp(l, "state ", 6) == 0 || strncmp(l, "secret ", 7) == 0) {
            continue;
        } else if (sscanf(l, "%64[0-9a-f] %llu %96s%n", sha, &size, name, &used) == 3 && (size_t)used == strlen(l)
                   && strlen(sha) == 64) {
            if (!m->e || m->n >= m->members) {
                snprintf(err, errlen, "MANIFEST:%ld: more members than its \"members\" line says", line);
                return ARB_ECORRUPT;
            }
            mentry *e = &m->e[m->n++];
            snprintf(e->name, sizeof e->name, "%s", name);
            snprintf(e->sha, sizeof e->sha, "%s", sha);
            e->size = (size_t)size;
        } else {
            char term[120];
            snprintf(err, errlen, "MANIFEST:%ld: \"%.60s\" is no manifest line", line, arb_term(l, term, sizeof term));
            return ARB_ECORRUPT;
        }
    }
    if (line == 0 || m->schema <= 0 || m->n != m->members) {
        snprintf(err, errlen, "MANIFEST: %s", m->schema <= 0 ? "no schema version"
                 : "fewer members listed than its \"members\" line says");
        return ARB_ECORRUPT;
    }
    return 0;
}

/* Pass 1: the whole archive read, nothing written: the members exactly
 * the manifest's, in its order, with its sizes and hashes. */
static int check_archive(const char *path, manifest *m, char *err, size_t errlen)
{
    struct archive *a = open_archive(path, err, errlen);
    if (!a)
        return ARB_EIO;
    typedef struct seen { char name[MEMBER_NAME_MAX + 1]; char sha[65]; size_t size; } seen;
    seen *s = NULL;
    long ns = 0, cap = 0;
    uint64_t limit = unpack_limit(path);
    int rc = 0;
    bool have_manifest = false;
    for (;;) {
        char name[MEMBER_NAME_MAX + 1];
        uint8_t *data;
        size_t len;
        rc = next_member(a, name, &data, &len, limit, err, errlen);
        if (rc <= 0)
            break;
        if (have_manifest) {
            snprintf(err, errlen, "member %s after the MANIFEST (which is the last)", name);
            free(data);
            rc = ARB_EINVAL;
            break;
        }
        if (strcmp(name, "MANIFEST") == 0) {
            have_manifest = true;
            rc = parse_manifest((char *)data, len, m, err, errlen);
            free(data);
            if (rc)
                break;
            continue;
        }
        if (ns == ARB_ARCHIVE_MAX_MEMBERS) {
            snprintf(err, errlen, "more than %u members", ARB_ARCHIVE_MAX_MEMBERS);
            free(data);
            rc = ARB_ETOOBIG;
            break;
        }
        if (ns == cap) {
            cap = cap ? cap * 2 : 256;
            seen *grown = realloc(s, (size_t)cap * sizeof *s);
            if (!grown) {
                free(data);
                snprintf(err, errlen, "out of memory");
                rc = ARB_ENOMEM;
                break;
            }
            s = grown;
        }
        rc = check_digest(name, data, len, err, errlen);
        if (rc) {
            free(data);
            break;
        }
        snprintf(s[ns].name, sizeof s[ns].name, "%s", name);
        arb_sha256_hex(data, len, s[ns].sha);
        s[ns++].size = len;
        free(data);
    }
    archive_read_free(a);
    if (rc == 0 && !have_manifest) {
        snprintf(err, errlen, "no MANIFEST: not an arbiter archive, or one cut short");
        rc = ARB_ECORRUPT;
    }
    for (long i = 0; rc == 0 && i < (ns > m->n ? ns : m->n); i++) {
        if (i >= ns || i >= m->n || strcmp(s[i].name, m->e[i].name) != 0) {
            snprintf(err, errlen, "member %ld is %s, the MANIFEST says %s", i + 1, i < ns ? s[i].name : "missing",
                     i < m->n ? m->e[i].name : "none");
            rc = ARB_ECORRUPT;
        } else if (s[i].size != m->e[i].size || strcmp(s[i].sha, m->e[i].sha) != 0) {
            snprintf(err, errlen, "member %s: %zu bytes of SHA-256 %.16s…, the MANIFEST says %zu bytes of %.16s…",
                     s[i].name, s[i].size, s[i].sha, m->e[i].size, m->e[i].sha);
            rc = ARB_ECORRUPT;
        }
    }
    free(s);
    return rc;
}

/* Pass 2: into one transaction, each member checked again. */
static int load_archive(const char *path, const manifest *m, store *st, bool commit, int64_t *tid, char *err,
                        size_t errlen)
{
    struct archive *a = open_archive(path, err, errlen);
    if (!a)
        return ARB_EIO;
    store_import *im = store_import_begin(st, err, errlen);
    if (!im) {
        archive_read_free(a);
        return ARB_EIO;
    }
    uint64_t limit = unpack_limit(path);
    int rc;
    for (long i = 0;; i++) {
        char name[MEMBER_NAME_MAX + 1], sha[65];
        uint8_t *data;
        size_t len;
        rc = next_member(a, name, &data, &len, limit, err, errlen);
        if (rc <= 0)
            break;
        if (strcmp(name, "MANIFEST") == 0) {
            free(data);
            continue;
        }
        if (i < m->n)
            arb_sha256_hex(data, len, sha);
        if (i >= m->n || strcmp(name, m->e[i].name) != 0 || len != m->e[i].size || strcmp(sha, m->e[i].sha) != 0) {
            snprintf(err, errlen, "member %s changed since it was checked", name);
            rc = ARB_ECORRUPT;
        } else {
            rc = store_import_member(im, name, data, len, err, errlen);
        }
        free(data);
        if (rc)
            break;
    }
    archive_read_free(a);
    /* the name said (and printed) is the row's: a MANIFEST naming another is not this archive's */
    if (rc == 0 && strcmp(store_import_name(im), m->tournament) != 0) {
        char t1[300], t2[300];
        snprintf(err, errlen, "the MANIFEST names tournament \"%s\", its row \"%s\"",
                 arb_term(m->tournament, t1, sizeof t1), arb_term(store_import_name(im), t2, sizeof t2));
        rc = ARB_ECORRUPT;
    }
    char why[256];
    char sha[65] = "";
    if (rc == 0)
        rc = file_sha256(path, sha, err, errlen);
    int erc = store_import_end(im, rc == 0 && commit, sha, tid, why, sizeof why);
    if (rc == 0 && erc) {
        snprintf(err, errlen, "%s", why);
        rc = erc;
    }
    return rc;
}

int cmd_import(int argc, char **argv)
{
    static const struct option lo[] = {
        {"help", no_argument, NULL, 'h'},        {"check", no_argument, NULL, 'c'},
        {"state", required_argument, NULL, 's'}, {"db", required_argument, NULL, 'd'},
        {NULL, 0, NULL, 0},
    };
    const char *state = "arbiter-state", *db = NULL;
    bool check = false;
    int opt;
    cli_opts_begin();
    while ((opt = cli_getopt("import", argc, argv, ":h", lo)) != -1) {
        switch (opt) {
        case 'h': import_usage(stdout); return CLI_EXIT_OK;
        case 'c': check = true; break;
        case 's': state = optarg; break;
        case 'd': db = optarg; break;
        default: import_usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "arbiter: import: expected FILE\n");
        import_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *path = argv[optind];
    char err[1024], term[1200], pterm[300];
    arb_term(path, pterm, sizeof pterm);
    manifest m = {0};
    int rc = check_archive(path, &m, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: import: %s: %s (nothing was written)\n", pterm, arb_term(err, term, sizeof term));
        free(m.e);
        return CLI_EXIT_FAIL;
    }
    /* the record: made where there is none yet (a fresh machine) */
    db_place place;
    rc = cli_open_place(&place, state, db, false, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: import: %s\n", err);
        free(m.e);
        return CLI_EXIT_USAGE;
    }
    store *st = store_open(place.conninfo, err, sizeof err);
    int status = CLI_EXIT_FAIL, schema = 0;
    int64_t tid = 0;
    if (!st || store_migrate(st, err, sizeof err) != 0 || store_schema_version(st, &schema, err, sizeof err) != 0) {
        if (!st)
            cli_say_unreachable("import", err);
        else
            fprintf(stderr, "arbiter: import: %s\n", err);
        status = CLI_EXIT_USAGE;
        goto out;
    }
    if (m.schema > schema) {
        fprintf(stderr, "arbiter: import: %s: an archive of record schema %d, this arbiter's is %d: import it with "
                "a newer arbiter (nothing was written)\n", pterm, m.schema, schema);
        goto out;
    }
    rc = load_archive(path, &m, st, !check, &tid, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: import: %s: %s (nothing was written)\n", pterm, arb_term(err, term, sizeof term));
        goto out;
    }
    if (check)
        printf("%s: %ld members checked and loaded, then rolled back (--check): it imports\n", pterm, m.n);
    else
        printf("imported %s from %s: %ld members, tournament id %" PRId64 "\n",
               arb_term(m.tournament, term, sizeof term), pterm, m.n, tid);
    status = CLI_EXIT_OK;
out:
    free(m.e);
    store_close(st);
    cli_close_place(&place);
    return status;
}
