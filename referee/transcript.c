/* transcript.c — transcript records: written with msgpack-c's packer and
 * hashed with libsodium's SHA-256, or compared against a recording; read
 * back with the bounded reader arb_mp (never msgpack-c's unpacker, which
 * allocates whatever a header claims). docs/transcripts.md. */
#include "transcript.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_mp.h"
#include "arb_time.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <msgpack.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct tr_sink {
    bool verify;
    /* writer */
    FILE *f;
    crypto_hash_sha256_state sha;
    /* verifier */
    const uint8_t *data;
    size_t len, pos;           /* pos: start of the next recorded record */
    bool loose;
    const uint8_t *orig;       /* the recorded record being matched */
    size_t orig_len;
    uint64_t orig_t, orig_wall, orig_cpu;
    char divergence[1536];
    /* both */
    uint64_t size;
    msgpack_sbuffer sb;
    msgpack_packer pk;
    int err;                   /* first error, sticky */
    uint32_t game, deal, seating, decision;
    bool in_game;
};

static const char *const type_names[TR_NTYPES] = {
    "header", "info", "deal", "send", "ask", "recv", "verdict", "penalty", "result",
    "botend", "end", "digest", "restart",
};

static bool compared(int type)
{
    return type != TR_INFO && type != TR_BOTEND && type != TR_DIGEST;
}

static tr_sink *sink_new(void)
{
    tr_sink *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    msgpack_sbuffer_init(&s->sb);
    msgpack_packer_init(&s->pk, &s->sb, msgpack_sbuffer_write);
    return s;
}

tr_sink *tr_writer_open(const char *path, int *err)
{
    if (sodium_init() < 0) {
        *err = ARB_EUNSUPPORTED;
        return NULL;
    }
    tr_sink *s = sink_new();
    if (!s) {
        *err = ARB_ENOMEM;
        return NULL;
    }
    /* 0600: the transcript holds every hand; no bot (another uid) may read
     * it while the match is played. */
    int fd = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
    s->f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (path && !s->f) {
        *err = ARB_EIO;
        msgpack_sbuffer_destroy(&s->sb);
        free(s);
        return NULL;
    }
    crypto_hash_sha256_init(&s->sha);
    *err = 0;
    return s;
}

tr_sink *tr_verifier_new(const uint8_t *data, size_t len, bool loose, int *err)
{
    tr_sink *s = sink_new();
    if (!s) {
        *err = ARB_ENOMEM;
        return NULL;
    }
    s->verify = true;
    s->data = data;
    s->len = len;
    s->loose = loose;
    *err = 0;
    return s;
}

const char *tr_divergence(const tr_sink *s) { return s->divergence; }
uint64_t tr_size(const tr_sink *s) { return s->size; }

/* Extent and type of the record at data[pos..]: 0, or an error. */
static int record_at(const uint8_t *data, size_t len, size_t pos, size_t *rec_len, int *type, uint64_t *t)
{
    arb_mp r;
    arb_mp_init(&r, data + pos, len - pos);
    uint32_t n;
    uint64_t ty = 0, tt = 0;
    if (arb_mp_array(&r, &n) || n < 2 || arb_mp_uint(&r, &ty) || arb_mp_uint(&r, &tt) || ty >= TR_NTYPES)
        return ARB_ECORRUPT;
    for (uint32_t i = 2; i < n; i++)
        if (arb_mp_skip(&r))
            return ARB_ECORRUPT;
    *rec_len = (len - pos) - arb_mp_left(&r);
    *type = (int)ty;
    if (t)
        *t = tt;
    return 0;
}

static void diverge(tr_sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diverge(tr_sink *s, const char *fmt, ...)
{
    if (s->divergence[0])
        return;
    int n = 0;
    if (s->in_game)
        n = snprintf(s->divergence, sizeof s->divergence, "game %" PRIu32 " (deal %" PRIu32 ", seating %" PRIu32
                     "), decision %" PRIu32 ": ", s->game, s->deal, s->seating, s->decision);
    else
        n = snprintf(s->divergence, sizeof s->divergence, "before the first deal: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->divergence + n, sizeof s->divergence - (size_t)n, fmt, ap);
    va_end(ap);
    s->err = ARB_ECORRUPT;
}

/* Verifier: find the next recorded record that is compared. */
static int next_orig(tr_sink *s, int *type)
{
    while (s->pos < s->len) {
        size_t n;
        int ty;
        uint64_t t;
        if (record_at(s->data, s->len, s->pos, &n, &ty, &t)) {
            diverge(s, "the recording is corrupt at byte %zu", s->pos);
            return ARB_ECORRUPT;
        }
        if (!compared(ty)) {
            s->pos += n;
            continue;
        }
        s->orig = s->data + s->pos;
        s->orig_len = n;
        s->orig_t = t;
        *type = ty;
        return 0;
    }
    s->orig = NULL;
    s->orig_len = 0;
    *type = -1;
    return ARB_ENOTFOUND;
}

/* The recorded reply's timings (fields 5 and 6 of a RECV record). */
static void recv_timings(tr_sink *s)
{
    arb_mp r;
    arb_mp_init(&r, s->orig, s->orig_len);
    uint32_t n;
    if (arb_mp_array(&r, &n) || n != 7)
        return;
    for (int i = 0; i < 5; i++)
        arb_mp_skip(&r);
    arb_mp_uint(&r, &s->orig_wall);
    arb_mp_uint(&r, &s->orig_cpu);
}

static void begin(tr_sink *s, int type, uint32_t nfields, uint64_t t)
{
    msgpack_sbuffer_clear(&s->sb);
    if (s->verify && compared(type)) {
        int ot;
        if (next_orig(s, &ot) == 0 && ot == type) {
            t = s->orig_t;   /* timestamps are not judged */
            if (type == TR_RECV)
                recv_timings(s);
        }
    }
    msgpack_pack_array(&s->pk, nfields + 2);
    msgpack_pack_uint64(&s->pk, (uint64_t)type);
    msgpack_pack_uint64(&s->pk, type == TR_HEADER ? 0 : t);
}

static void pack_str(tr_sink *s, const char *str)
{
    msgpack_pack_str_with_body(&s->pk, str, strlen(str));
}

/* Track where we are, for divergence messages. */
static void note_context(tr_sink *s, const uint8_t *rec, size_t len)
{
    arb_mp r;
    arb_mp_init(&r, rec, len);
    uint32_t n;
    uint64_t ty, t, a = 0, b = 0, c = 0;
    if (arb_mp_array(&r, &n) || arb_mp_uint(&r, &ty) || arb_mp_uint(&r, &t))
        return;
    if (ty == TR_DEAL && !arb_mp_uint(&r, &a) && !arb_mp_uint(&r, &b) && !arb_mp_uint(&r, &c)) {
        s->game = (uint32_t)a;
        s->deal = (uint32_t)b;
        s->seating = (uint32_t)c;
        s->decision = 0;
        s->in_game = true;
    } else if (ty == TR_ASK && !arb_mp_uint(&r, &a) && !arb_mp_uint(&r, &b) && !arb_mp_uint(&r, &c)) {
        s->decision = (uint32_t)c;
    }
}

static int commit(tr_sink *s, int type)
{
    if (s->err)
        return s->err;
    const uint8_t *rec = (const uint8_t *)s->sb.data;
    size_t len = s->sb.size;
    if (!s->verify) {
        if (s->size + len > ARB_MAX_TRANSCRIPT)
            return s->err = ARB_ETOOBIG;
        if (s->f && fwrite(rec, 1, len, s->f) != len)
            return s->err = ARB_EIO;
        crypto_hash_sha256_update(&s->sha, rec, len);
        s->size += len;
        note_context(s, rec, len);
        return 0;
    }
    if (!compared(type))
        return 0;
    note_context(s, rec, len);
    char want[1024], got[1024];
    tr_describe(rec, len, want, sizeof want);
    if (!s->orig) {
        diverge(s, "the judge produced %s, the recording ends here", want);
        return s->err;
    }
    if (s->orig_len != len || memcmp(s->orig, rec, len) != 0) {
        tr_describe(s->orig, s->orig_len, got, sizeof got);
        diverge(s, "expected %s, recorded %s", want, got);
        return s->err;
    }
    s->pos = (size_t)(s->orig - s->data) + s->orig_len;
    s->size += len;
    s->orig = NULL;
    return 0;
}

int tr_header(tr_sink *s, const match_config *cfg, const char *options)
{
    begin(s, TR_HEADER, 1, 0);
    msgpack_packer *pk = &s->pk;
    msgpack_pack_map(pk, 18);
    pack_str(s, "format"); pack_str(s, "arbiter-transcript");
    pack_str(s, "version"); msgpack_pack_uint32(pk, TR_VERSION);
    pack_str(s, "key"); msgpack_pack_bin_with_body(pk, cfg->key, sizeof cfg->key);
    pack_str(s, "key_label"); pack_str(s, cfg->key_label);
    pack_str(s, "commitment"); pack_str(s, cfg->commitment);
    pack_str(s, "game"); pack_str(s, cfg->game->name);
    pack_str(s, "rules"); pack_str(s, cfg->preset);
    pack_str(s, "options"); pack_str(s, options);
    pack_str(s, "seed"); msgpack_pack_uint64(pk, cfg->seed);
    pack_str(s, "deals"); msgpack_pack_uint32(pk, cfg->deals);
    pack_str(s, "duplicate"); pack_str(s, match_duplicate_name((match_duplicate)cfg->duplicate));
    pack_str(s, "fixed_seats"); cfg->fixed_seats ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    pack_str(s, "clock");
    msgpack_pack_array(pk, 4);
    msgpack_pack_int64(pk, cfg->move_ms);
    msgpack_pack_int64(pk, cfg->deal_ms);
    msgpack_pack_int64(pk, cfg->bank_ms);
    msgpack_pack_int64(pk, cfg->startup_ms);
    pack_str(s, "policy"); pack_str(s, match_policy_name((match_policy)cfg->policy));
    pack_str(s, "strikes"); msgpack_pack_uint32(pk, cfg->strikes);
    pack_str(s, "forfeit_points"); msgpack_pack_int64(pk, cfg->forfeit_points);
    pack_str(s, "players"); msgpack_pack_int(pk, cfg->nbots);
    pack_str(s, "bots");
    msgpack_pack_array(pk, (size_t)cfg->nbots);
    for (int b = 0; b < cfg->nbots; b++) {
        msgpack_pack_map(pk, 2);
        pack_str(s, "name"); pack_str(s, cfg->bots[b].name);
        pack_str(s, "argv");
        msgpack_pack_array(pk, (size_t)cfg->bots[b].argc);
        for (int i = 0; i < cfg->bots[b].argc; i++)
            pack_str(s, cfg->bots[b].argv[i]);
    }
    return commit(s, TR_HEADER);
}

int tr_restart(tr_sink *s, uint64_t t, int bot, uint32_t game, uint32_t seating)
{
    begin(s, TR_RESTART, 3, t);
    msgpack_pack_int(&s->pk, bot);
    msgpack_pack_uint32(&s->pk, game);
    msgpack_pack_uint32(&s->pk, seating);
    return commit(s, TR_RESTART);
}

int tr_info(tr_sink *s, const char *engine_version)
{
    char wall[40];
    begin(s, TR_INFO, 1, 0);
    msgpack_pack_map(&s->pk, 2);
    pack_str(s, "engine"); pack_str(s, engine_version);
    pack_str(s, "started"); pack_str(s, arb_wall_iso8601(wall, sizeof wall));
    return commit(s, TR_INFO);
}

int tr_deal(tr_sink *s, uint64_t t, const match_deal *d, int nseats)
{
    begin(s, TR_DEAL, 5, t);
    msgpack_pack_uint32(&s->pk, d->game);
    msgpack_pack_uint32(&s->pk, d->deal);
    msgpack_pack_uint32(&s->pk, d->seating);
    msgpack_pack_uint64(&s->pk, d->seed);
    msgpack_pack_array(&s->pk, (size_t)nseats);
    for (int i = 0; i < nseats; i++)
        msgpack_pack_uint8(&s->pk, d->bot_at[i]);
    return commit(s, TR_DEAL);
}

int tr_send(tr_sink *s, uint64_t t, int bot, const char *line)
{
    begin(s, TR_SEND, 2, t);
    msgpack_pack_int(&s->pk, bot);
    pack_str(s, line);
    return commit(s, TR_SEND);
}

int tr_ask(tr_sink *s, uint64_t t, int bot, uint32_t game, uint32_t decision, const char *request, int nlegal)
{
    begin(s, TR_ASK, 5, t);
    msgpack_pack_int(&s->pk, bot);
    msgpack_pack_uint32(&s->pk, game);
    msgpack_pack_uint32(&s->pk, decision);
    pack_str(s, request);
    msgpack_pack_int(&s->pk, nlegal);
    return commit(s, TR_ASK);
}

int tr_recv(tr_sink *s, uint64_t t, int bot, const md_reply *r)
{
    begin(s, TR_RECV, 5, t);
    msgpack_pack_int(&s->pk, bot);
    msgpack_pack_uint8(&s->pk, r->kind);
    if (r->kind == MD_LINE)
        pack_str(s, r->line);
    else
        msgpack_pack_nil(&s->pk);
    bool copy = s->verify && s->loose && s->orig;
    msgpack_pack_uint64(&s->pk, copy ? s->orig_wall : r->wall_ns);
    msgpack_pack_uint64(&s->pk, copy ? s->orig_cpu : r->cpu_ns);
    return commit(s, TR_RECV);
}

int tr_verdict(tr_sink *s, uint64_t t, uint32_t game, uint32_t decision, int seat, int bot,
               const char *action, bool by_referee)
{
    begin(s, TR_VERDICT, 6, t);
    msgpack_pack_uint32(&s->pk, game);
    msgpack_pack_uint32(&s->pk, decision);
    msgpack_pack_int(&s->pk, seat);
    msgpack_pack_int(&s->pk, bot);
    pack_str(s, action);
    by_referee ? msgpack_pack_true(&s->pk) : msgpack_pack_false(&s->pk);
    return commit(s, TR_VERDICT);
}

int tr_penalty(tr_sink *s, uint64_t t, uint32_t game, uint32_t decision, int seat, int bot,
               match_reason reason, const char *consequence, const char *detail)
{
    begin(s, TR_PENALTY, 7, t);
    msgpack_pack_uint32(&s->pk, game);
    msgpack_pack_uint32(&s->pk, decision);
    msgpack_pack_int(&s->pk, seat);
    msgpack_pack_int(&s->pk, bot);
    pack_str(s, match_reason_name(reason));
    pack_str(s, consequence);
    pack_str(s, detail);
    return commit(s, TR_PENALTY);
}

int tr_result(tr_sink *s, uint64_t t, const match_deal *d, int nseats)
{
    begin(s, TR_RESULT, 3, t);
    msgpack_pack_uint32(&s->pk, d->game);
    msgpack_pack_array(&s->pk, (size_t)nseats);
    for (int i = 0; i < nseats; i++)
        msgpack_pack_int64(&s->pk, d->score[i]);
    msgpack_pack_int(&s->pk, d->forfeit_bot);
    return commit(s, TR_RESULT);
}

int tr_botend(tr_sink *s, uint64_t t, int bot, const char *sandbox, int status,
              const char *err_text, size_t err_len)
{
    begin(s, TR_BOTEND, 4, t);
    msgpack_pack_int(&s->pk, bot);
    pack_str(s, sandbox);
    msgpack_pack_int(&s->pk, status);
    msgpack_pack_bin_with_body(&s->pk, err_text ? err_text : "", err_text ? err_len : 0);
    return commit(s, TR_BOTEND);
}

int tr_end(tr_sink *s, uint64_t t, const match_result *res)
{
    begin(s, TR_END, 1, t);
    msgpack_packer *pk = &s->pk;
    msgpack_pack_map(pk, 5);
    pack_str(s, "totals");
    msgpack_pack_array(pk, (size_t)res->nbots);
    for (int b = 0; b < res->nbots; b++)
        msgpack_pack_int64(pk, res->bots[b].total);
    pack_str(s, "winners");
    msgpack_pack_uint32(pk, res->winners);
    pack_str(s, "forfeited");
    msgpack_pack_array(pk, (size_t)res->nbots);
    for (int b = 0; b < res->nbots; b++)
        res->bots[b].forfeited ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    pack_str(s, "games");
    msgpack_pack_uint32(pk, res->ndeals);
    pack_str(s, "decisions");
    msgpack_pack_uint64(pk, res->decisions);
    return commit(s, TR_END);
}

static void to_hex(const uint8_t *d, size_t n, char *hex)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        hex[2 * i] = digits[d[i] >> 4];
        hex[2 * i + 1] = digits[d[i] & 15];
    }
    hex[2 * n] = 0;
}

int tr_next_reply(tr_sink *s, int bot, md_reply *r)
{
    if (s->err)
        return s->err;
    int type;
    memset(r, 0, sizeof *r);
    if (next_orig(s, &type) != 0) {
        diverge(s, "the judge waits for a reply from bot %d, the recording ends here", bot);
        return s->err;
    }
    char got[1024];
    arb_mp m;
    arb_mp_init(&m, s->orig, s->orig_len);
    uint32_t n;
    uint64_t ty, t, kind = 0, wall = 0, cpu = 0;
    int64_t b = -1;
    const char *line = NULL;
    uint32_t llen = 0;
    if (type == TR_RECV && !arb_mp_array(&m, &n) && n == 7 && !arb_mp_uint(&m, &ty) && !arb_mp_uint(&m, &t)
        && !arb_mp_int(&m, &b) && !arb_mp_uint(&m, &kind) && kind <= MD_CRASHED) {
        if (kind == MD_LINE ? arb_mp_str(&m, &line, &llen) == 0 && llen <= ARB_MAX_LINE : arb_mp_nil(&m) == 0) {
            if (b == bot && !arb_mp_uint(&m, &wall) && !arb_mp_uint(&m, &cpu)) {
                r->kind = (uint8_t)kind;
                if (line) {
                    memcpy(r->line, line, llen);
                    r->line[llen] = 0;
                    if (memchr(r->line, 0, llen))   /* a NUL inside: not a line a bot could send */
                        goto bad;
                }
                r->wall_ns = wall;
                r->cpu_ns = cpu;
                s->orig_wall = wall;
                s->orig_cpu = cpu;
                return 0;
            }
        }
    }
bad:
    tr_describe(s->orig, s->orig_len, got, sizeof got);
    diverge(s, "the judge waits for a reply from bot %d, recorded %s", bot, got);
    return s->err;
}

int tr_close(tr_sink *s, char hex[65])
{
    int rc = s->err;
    hex[0] = 0;
    if (!s->verify) {
        uint8_t digest[crypto_hash_sha256_BYTES];
        crypto_hash_sha256_final(&s->sha, digest);
        to_hex(digest, sizeof digest, hex);
        msgpack_sbuffer_clear(&s->sb);
        msgpack_pack_array(&s->pk, 4);
        msgpack_pack_uint64(&s->pk, TR_DIGEST);
        msgpack_pack_uint64(&s->pk, 0);
        pack_str(s, "sha256");
        msgpack_pack_bin_with_body(&s->pk, digest, sizeof digest);
        if (s->f) {
            if (fwrite(s->sb.data, 1, s->sb.size, s->f) != s->sb.size && !rc)
                rc = ARB_EIO;
            /* The transcript is the evidence: on disk before we say it exists. */
            if ((fflush(s->f) != 0 || fsync(fileno(s->f)) != 0) && !rc)
                rc = ARB_EIO;
            if (fclose(s->f) != 0 && !rc)
                rc = ARB_EIO;
        }
    } else if (!rc) {
        int type;
        if (next_orig(s, &type) == 0) {
            char got[1024];
            tr_describe(s->orig, s->orig_len, got, sizeof got);
            diverge(s, "the judge has finished, the recording goes on with %s", got);
            rc = s->err;
        } else if (s->divergence[0]) {
            rc = ARB_ECORRUPT;
        }
    }
    msgpack_sbuffer_destroy(&s->sb);
    free(s);
    return rc;
}

void tr_abandon(tr_sink *s)
{
    if (!s)
        return;
    if (s->f)
        fclose(s->f);
    msgpack_sbuffer_destroy(&s->sb);
    free(s);
}

/* ---- Reading ------------------------------------------------------------ */

int tr_load(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen)
{
    *data = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return ARB_EIO;
    }
    struct stat st;
    int rc = 0;
    uint8_t *buf = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        rc = ARB_EINVAL;
        goto out;
    }
    if ((uint64_t)st.st_size > ARB_MAX_TRANSCRIPT) {
        snprintf(err, errlen, "%s: %lld bytes, more than the %u-byte limit (ARB_MAX_TRANSCRIPT)",
                 path, (long long)st.st_size, ARB_MAX_TRANSCRIPT);
        rc = ARB_ETOOBIG;
        goto out;
    }
    buf = malloc((size_t)st.st_size + 1);
    if (!buf) {
        rc = ARB_ENOMEM;
        goto out;
    }
    size_t got = 0;
    while (got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            break;
        }
        got += (size_t)n;
    }
    if (got != (size_t)st.st_size) {
        snprintf(err, errlen, "%s: short read", path);
        rc = ARB_EIO;
        goto out;
    }
    *data = buf;
    *len = got;
    buf = NULL;
out:
    free(buf);
    close(fd);
    return rc;
}

int tr_each(const uint8_t *data, size_t len, int (*fn)(void *ctx, int type, const uint8_t *rec, size_t n), void *ctx)
{
    size_t pos = 0;
    while (pos < len) {
        size_t n;
        int type;
        if (record_at(data, len, pos, &n, &type, NULL))
            return ARB_ECORRUPT;
        int rc = fn(ctx, type, data + pos, n);
        if (rc)
            return rc;
        pos += n;
    }
    return 0;
}

static int read_str_field(arb_mp *r, char *buf, size_t cap)
{
    return arb_mp_str_copy(r, buf, cap);
}

int tr_read_header(const uint8_t *data, size_t len, match_config *cfg, char *err, size_t errlen)
{
    size_t n;
    int type;
    if (record_at(data, len, 0, &n, &type, NULL) || type != TR_HEADER) {
        snprintf(err, errlen, "not an arbiter transcript (no header record)");
        return ARB_ECORRUPT;
    }
    arb_mp r;
    arb_mp_init(&r, data, n);
    uint32_t cnt, nkeys;
    uint64_t u;
    arb_mp_array(&r, &cnt);
    arb_mp_uint(&r, &u);
    arb_mp_uint(&r, &u);
    if (arb_mp_map(&r, &nkeys)) {
        snprintf(err, errlen, "header: not a map");
        return ARB_ECORRUPT;
    }
    char game[32] = "", format[32] = "", dup[32] = "", policy[32] = "";
    uint64_t version = 0;
    bool have_key = false;
    match_config_init(cfg, NULL);
    cfg->nbots = 0;
    int rc = 0;
    for (uint32_t k = 0; k < nkeys && !rc; k++) {
        int64_t i64;
        uint32_t m;
        bool bv;
        if (arb_mp_key(&r, "format")) rc = read_str_field(&r, format, sizeof format);
        else if (arb_mp_key(&r, "version")) rc = arb_mp_uint(&r, &version);
        else if (arb_mp_key(&r, "game")) rc = read_str_field(&r, game, sizeof game);
        else if (arb_mp_key(&r, "rules")) rc = read_str_field(&r, cfg->preset, sizeof cfg->preset);
        else if (arb_mp_key(&r, "options")) rc = read_str_field(&r, cfg->options, sizeof cfg->options);
        else if (arb_mp_key(&r, "seed")) rc = arb_mp_uint(&r, &cfg->seed);
        else if (arb_mp_key(&r, "key")) {
            const uint8_t *kb;
            uint32_t kl;
            rc = arb_mp_bin(&r, &kb, &kl);
            if (!rc && kl != sizeof cfg->key)
                rc = ARB_ECORRUPT;
            if (!rc) {
                memcpy(cfg->key, kb, sizeof cfg->key);
                have_key = true;
            }
        } else if (arb_mp_key(&r, "key_label")) rc = read_str_field(&r, cfg->key_label, sizeof cfg->key_label);
        else if (arb_mp_key(&r, "commitment")) rc = read_str_field(&r, cfg->commitment, sizeof cfg->commitment);
        else if (arb_mp_key(&r, "deals")) {
            rc = arb_mp_uint(&r, &u);
            cfg->deals = (uint32_t)(u > ARB_MAX_DEALS ? 0 : u);
        } else if (arb_mp_key(&r, "duplicate")) rc = read_str_field(&r, dup, sizeof dup);
        else if (arb_mp_key(&r, "fixed_seats")) {
            rc = arb_mp_bool(&r, &bv);
            cfg->fixed_seats = bv;
        } else if (arb_mp_key(&r, "clock")) {
            int64_t *dst[4] = {&cfg->move_ms, &cfg->deal_ms, &cfg->bank_ms, &cfg->startup_ms};
            rc = arb_mp_array(&r, &m);
            for (uint32_t i = 0; i < m && !rc; i++) {
                rc = arb_mp_int(&r, &i64);
                if (i < 4)
                    *dst[i] = i64;
            }
        } else if (arb_mp_key(&r, "policy")) rc = read_str_field(&r, policy, sizeof policy);
        else if (arb_mp_key(&r, "strikes")) {
            rc = arb_mp_uint(&r, &u);
            cfg->strikes = (uint32_t)(u > 1000000 ? 1000000 : u);
        } else if (arb_mp_key(&r, "forfeit_points")) rc = arb_mp_int(&r, &cfg->forfeit_points);
        else if (arb_mp_key(&r, "players")) rc = arb_mp_int(&r, &i64);
        else if (arb_mp_key(&r, "bots")) {
            rc = arb_mp_array(&r, &m);
            if (!rc && m > ARB_MAX_SEATS)
                rc = ARB_ERANGE;
            for (uint32_t b = 0; b < m && !rc; b++) {
                match_bot_cfg *bc = &cfg->bots[b];
                uint32_t bk;
                rc = arb_mp_map(&r, &bk);
                for (uint32_t j = 0; j < bk && !rc; j++) {
                    if (arb_mp_key(&r, "name"))
                        rc = read_str_field(&r, bc->name, sizeof bc->name);
                    else if (arb_mp_key(&r, "argv")) {
                        uint32_t na;
                        rc = arb_mp_array(&r, &na);
                        if (!rc && na > ARB_MAX_BOT_ARGS)
                            rc = ARB_ERANGE;
                        for (uint32_t a = 0; a < na && !rc; a++)
                            rc = read_str_field(&r, bc->argv[a], sizeof bc->argv[a]);
                        bc->argc = (int)na;
                    } else if (!(rc = arb_mp_skip(&r)))
                        rc = arb_mp_skip(&r);
                }
            }
            cfg->nbots = (int)m;
        } else if (!(rc = arb_mp_skip(&r)))
            rc = arb_mp_skip(&r);   /* an unknown key and its value */
    }
    if (rc) {
        snprintf(err, errlen, "header: malformed (%s)", arb_strerror(rc));
        return ARB_ECORRUPT;
    }
    if (strcmp(format, "arbiter-transcript") != 0) {
        snprintf(err, errlen, "not an arbiter transcript (format \"%s\")", format);
        return ARB_ECORRUPT;
    }
    if (version == 1) {
        snprintf(err, errlen, "transcript format version 1 (deals seeded from the bare match seed, before keyed "
                 "seeds) is no longer read: this arbiter reads version %d", TR_VERSION);
        return ARB_EUNSUPPORTED;
    }
    if (version != TR_VERSION) {
        snprintf(err, errlen, "transcript version %" PRIu64 ", this arbiter reads version %d", version, TR_VERSION);
        return ARB_EUNSUPPORTED;
    }
    if (!have_key) {
        snprintf(err, errlen, "header: no match key");
        return ARB_ECORRUPT;
    }
    cfg->game = arb_game_find(game);
    if (!cfg->game) {
        snprintf(err, errlen, "unknown game \"%s\"", game);
        return ARB_ENOTFOUND;
    }
    match_duplicate d;
    match_policy p;
    if (match_duplicate_parse(dup, &d) || match_policy_parse(policy, &p)) {
        snprintf(err, errlen, "header: unknown duplicate mode \"%s\" or policy \"%s\"", dup, policy);
        return ARB_ECORRUPT;
    }
    cfg->duplicate = (uint8_t)d;
    cfg->policy = (uint8_t)p;
    return 0;
}

int tr_check_digest(const uint8_t *data, size_t len, char hex[65], char *err, size_t errlen)
{
    size_t pos = 0, n = 0;
    int type = -1;
    hex[0] = 0;
    while (pos < len) {
        if (record_at(data, len, pos, &n, &type, NULL)) {
            snprintf(err, errlen, "corrupt record at byte %zu", pos);
            return ARB_ECORRUPT;
        }
        if (type == TR_DIGEST)
            break;
        pos += n;
    }
    if (type != TR_DIGEST) {
        snprintf(err, errlen, "no digest: the transcript was cut short");
        return ARB_ENOTFOUND;
    }
    if (pos + n != len) {
        snprintf(err, errlen, "%zu bytes after the digest record", len - pos - n);
        return ARB_ECORRUPT;
    }
    arb_mp r;
    arb_mp_init(&r, data + pos, n);
    uint32_t cnt, blen;
    uint64_t u;
    const char *alg;
    uint32_t alen;
    const uint8_t *bin;
    if (arb_mp_array(&r, &cnt) || cnt != 4 || arb_mp_uint(&r, &u) || arb_mp_uint(&r, &u)
        || arb_mp_str(&r, &alg, &alen) || alen != 6 || memcmp(alg, "sha256", 6) != 0
        || arb_mp_bin(&r, &bin, &blen) || blen != crypto_hash_sha256_BYTES) {
        snprintf(err, errlen, "malformed digest record");
        return ARB_ECORRUPT;
    }
    uint8_t digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, data, pos);
    to_hex(bin, blen, hex);
    if (sodium_memcmp(digest, bin, sizeof digest) != 0) {
        char actual[65];
        to_hex(digest, sizeof digest, actual);
        snprintf(err, errlen, "digest mismatch: recorded %s, content hashes to %s (the transcript was altered)",
                 hex, actual);
        return ARB_ECORRUPT;
    }
    return 0;
}

/* One object as text, bounded. */
static void describe_obj(arb_mp *r, char *buf, size_t cap, size_t *n, int depth)
{
#define OUT(...) do { if (*n < cap) *n += (size_t)snprintf(buf + *n, cap - *n, __VA_ARGS__); if (*n > cap) *n = cap; } while (0)
    int t = arb_mp_peek(r);
    uint64_t u;
    int64_t i;
    bool b;
    const char *s;
    uint32_t len;
    if (depth > ARB_MP_MAX_DEPTH) {
        arb_mp_skip(r);
        OUT("...");
        return;
    }
    switch (t) {
    case ARB_MP_UINT: arb_mp_uint(r, &u); OUT("%" PRIu64, u); break;
    case ARB_MP_INT: arb_mp_int(r, &i); OUT("%" PRId64, i); break;
    case ARB_MP_BOOL: arb_mp_bool(r, &b); OUT("%s", b ? "true" : "false"); break;
    case ARB_MP_NIL: arb_mp_nil(r); OUT("nil"); break;
    case ARB_MP_STR: arb_mp_str(r, &s, &len); OUT("\"%.*s\"", (int)(len > 200 ? 200 : len), s); break;
    case ARB_MP_BIN: { const uint8_t *p; arb_mp_bin(r, &p, &len); OUT("<%u bytes>", len); break; }
    case ARB_MP_ARRAY:
        arb_mp_array(r, &len);
        OUT("[");
        for (uint32_t k = 0; k < len && !r->err; k++) {
            if (k) OUT(" ");
            describe_obj(r, buf, cap, n, depth + 1);
        }
        OUT("]");
        break;
    case ARB_MP_MAP:
        arb_mp_map(r, &len);
        OUT("{");
        for (uint32_t k = 0; k < len && !r->err; k++) {
            if (k) OUT(", ");
            describe_obj(r, buf, cap, n, depth + 1);
            OUT(": ");
            describe_obj(r, buf, cap, n, depth + 1);
        }
        OUT("}");
        break;
    default:
        if (arb_mp_skip(r) == 0)
            OUT("?");
        break;
    }
#undef OUT
}

int tr_describe(const uint8_t *rec, size_t len, char *buf, size_t cap)
{
    arb_mp r;
    arb_mp_init(&r, rec, len);
    uint32_t cnt;
    uint64_t ty, t;
    size_t n = 0;
    buf[0] = 0;
    if (arb_mp_array(&r, &cnt) || cnt < 2 || arb_mp_uint(&r, &ty) || arb_mp_uint(&r, &t) || ty >= TR_NTYPES)
        return snprintf(buf, cap, "(corrupt record)");
    n = (size_t)snprintf(buf, cap, "%s", type_names[ty]);
    for (uint32_t k = 2; k < cnt && !r.err && n < cap; k++) {
        n += (size_t)snprintf(buf + n, cap - n, " ");
        if (n < cap)
            describe_obj(&r, buf, cap, &n, 1);
    }
    return (int)n;
}
