/* deal_test.c — issue 10, dealing: a bot that inverts the seed of its
 * `match` line cannot deal the deals; a bot process never meets a deal
 * twice in duplicate play (rotate and all); same seed + secret gives the
 * same match, another secret other deals; replay proves the deals follow
 * from seed + secret, refuses a wrong secret, a tampered key and a version
 * 1 transcript. Real bot processes in the real sandbox.
 * argv: deal_invert_bot deal_memory_bot random_bot */
#include "live.h"
#include "ddz.h"
#include "arb_file.h"
#include "match.h"
#include "replay.h"
#include "record.h"
#include "transcript.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_limits.h"
#include "arb_mp.h"
#include "../unit/test_util.h"
#include "../lib/test_live.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *invert_bot, *memory_bot, *random_bot;
static char tmpdir[256];

static void secret_of(uint8_t secret[32], uint8_t fill)
{
    for (int i = 0; i < 32; i++)
        secret[i] = (uint8_t)(fill + 7 * i);
}

static void config(match_config *cfg, uint32_t deals, uint64_t seed, uint8_t fill, const char *bots[3])
{
    match_config_init(cfg, &arb_game_doudizhu);
    cfg->deals = deals;
    cfg->seed = seed;
    cfg->nbots = 3;
    cfg->move_ms = 1000;
    cfg->bank_ms = 5000;
    cfg->startup_ms = 5000;
    uint8_t secret[32];
    secret_of(secret, fill);
    char label[64];
    snprintf(label, sizeof label, "match|%llu", (unsigned long long)seed);
    CHECK(match_set_key(cfg, secret, label) == 0);
    for (int b = 0; b < 3; b++) {
        snprintf(cfg->bots[b].name, sizeof cfg->bots[b].name, "b%d", b);
        snprintf(cfg->bots[b].argv[0], sizeof cfg->bots[b].argv[0], "%s", bots[b]);
        cfg->bots[b].argc = 1;
    }
}

static int play(const match_config *cfg, const char *path, match_result *res)
{
    char digest[65];
    return test_play_live(cfg, path, LIVE_SANDBOX_AUTO, res, digest, NULL);
}

/* What the bots wrote on stderr, every process (BOTEND records), and the
 * restarts the transcript records. */
typedef struct scan {
    char text[1 << 16];
    size_t len;
    int restarts;
    bool bwrap;           /* every bot process ran inside bubblewrap */
    int botends;
    char *norm;           /* the records that must be reproducible, as text */
    size_t nlen, ncap;
} scan;

static int on_record(void *ctx, int type, const uint8_t *rec, size_t n)
{
    scan *s = ctx;
    if (type == TR_RESTART)
        s->restarts++;
    if (type == TR_BOTEND) {
        arb_mp r;
        arb_mp_init(&r, rec, n);
        uint32_t cnt, blen, slen;
        uint64_t u;
        int64_t i;
        const char *sb;
        const uint8_t *bin;
        if (!arb_mp_array(&r, &cnt) && cnt == 6 && !arb_mp_uint(&r, &u) && !arb_mp_uint(&r, &u)
            && !arb_mp_int(&r, &i) && !arb_mp_str(&r, &sb, &slen) && !arb_mp_int(&r, &i)
            && !arb_mp_bin(&r, &bin, &blen)) {
            s->botends++;
            if (!(slen >= 5 && memcmp(sb, "bwrap", 5) == 0))
                s->bwrap = false;
            size_t k = blen < sizeof s->text - 1 - s->len ? blen : sizeof s->text - 1 - s->len;
            memcpy(s->text + s->len, bin, k);
            s->len += k;
            s->text[s->len] = 0;
        }
    }
    /* Everything judged, without the times (INFO, BOTEND, DIGEST and reply
     * timings are not part of the judgement). */
    if (type != TR_INFO && type != TR_BOTEND && type != TR_DIGEST) {
        char d[2048];
        tr_describe(rec, n, d, sizeof d);
        if (type == TR_RECV) {
            for (int cut = 0; cut < 2; cut++) {
                char *sp = strrchr(d, ' ');
                if (sp)
                    *sp = 0;
            }
        }
        size_t dl = strlen(d);
        if (s->nlen + dl + 2 > s->ncap) {
            s->ncap = (s->ncap + dl + 2) * 2;
            s->norm = realloc(s->norm, s->ncap);
        }
        memcpy(s->norm + s->nlen, d, dl);
        s->nlen += dl;
        s->norm[s->nlen++] = '\n';
        s->norm[s->nlen] = 0;
    }
    return 0;
}

static void scan_file(const char *path, scan *s)
{
    uint8_t *data;
    size_t len;
    char err[256];
    memset(s, 0, sizeof *s);
    s->bwrap = true;
    CHECKF(tr_load(path, &data, &len, err, sizeof err) == 0, "%s", err);
    CHECK(tr_each(data, len, on_record, s) == 0);
    free(data);
}

static int count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* Attack 1: the seed in the `match` line was one SplitMix64 step of the
 * match seed; the bot inverted it and dealt every deal itself. */
static void test_invert(void)
{
    const char *bots[3] = {invert_bot, random_bot, random_bot};
    match_config cfg;
    config(&cfg, 6, 12345, 1, bots);
    char path[300];
    snprintf(path, sizeof path, "%s/invert.arbt", tmpdir);
    match_result res;
    CHECK(play(&cfg, path, &res) == 0);
    scan s;
    scan_file(path, &s);
    int predicted = count(s.text, ": predicted"), not_predicted = count(s.text, ": not predicted");
    printf("invert: %d deals predicted, %d not\n", predicted, not_predicted);
    CHECKF(predicted == 0, "the bot dealt %d deals itself from its seed", predicted);
    CHECKF(not_predicted == 6, "%d verdicts of the bot (expected one per deal)", not_predicted);
    CHECK(res.bots[0].penalties == 0);
    /* Nothing any bot was told holds a deal's seed or the match key. */
    char key_hex[65], num[32];
    arb_key_hex(cfg.key, key_hex);
    CHECK(s.norm && !strstr(s.norm, key_hex));
    for (uint32_t g = 0; g < res.ndeals && s.norm; g++) {
        snprintf(num, sizeof num, "%llu", (unsigned long long)res.deals[g].seed);
        for (const char *p = strstr(s.norm, num); p; p = strstr(p + 1, num)) {
            const char *bol = p;
            while (bol > s.norm && bol[-1] != '\n')
                bol--;
            CHECKF(strncmp(bol, "send ", 5) != 0, "deal %u's seed sent to a bot", g);
        }
    }
    match_result_release(&res);
    free(s.norm);
}

/* Attack 2: in duplicate mode the same process played every seating of a
 * deal and knew the other hands from the second seating on. */
static void test_memory(match_duplicate dup, uint32_t deals, uint32_t seatings)
{
    const char *bots[3] = {memory_bot, memory_bot, memory_bot};
    match_config cfg;
    config(&cfg, deals, 777, 2, bots);
    cfg.duplicate = (uint8_t)dup;
    char path[300];
    snprintf(path, sizeof path, "%s/memory-%s.arbt", tmpdir, match_duplicate_name(dup));
    /* A file left by an earlier run (shared /tmp without bubblewrap) is not
     * this match's memory. */
    unlink("/tmp/deal-memory-bot");
    match_result res;
    CHECK(play(&cfg, path, &res) == 0);
    CHECK(res.ndeals == deals * seatings);
    scan s;
    scan_file(path, &s);
    int fresh = count(s.text, ": new"), seen = count(s.text, "seen before");
    int seen_tmp = count(s.text, "seen before (tmp)");
    printf("memory %s: %d hands new, %d seen before (%d through /tmp), %d restarts, %d processes, bwrap %s\n",
           match_duplicate_name(dup), fresh, seen, seen_tmp, s.restarts, s.botends, s.bwrap ? "yes" : "no");
    CHECKF(fresh + seen == (int)(deals * seatings * 3), "%d hands reported", fresh + seen);
    if (s.bwrap) {
        CHECKF(seen == 0, "a bot process met a deal it had seen: %d times", seen);
    } else {
        /* Without bubblewrap /tmp is the host's: a bot can leave files there
         * for its next process (docs/transcripts.md). Memory and working
         * directory are still fresh. */
        printf("skip: /tmp memory not checked: bubblewrap is not usable here, /tmp is shared\n");
        CHECKF(seen - seen_tmp == 0, "a bot process met a deal it had seen: %d times", seen - seen_tmp);
    }
    CHECK(s.restarts == (int)(seatings - 1) * 3);
    CHECK(s.botends == (int)seatings * 3);
    for (int b = 0; b < 3; b++)
        CHECKF(res.bots[b].penalties == 0, "bot %d: %u penalties", b, res.bots[b].penalties);
    match_result_release(&res);
    free(s.norm);
    unlink("/tmp/deal-memory-bot");
}

/* Same configuration, seed and secret: the same match record for record;
 * another secret: other deals. */
static void test_determinism(void)
{
    const char *bots[3] = {random_bot, random_bot, random_bot};
    match_config a, b, c;
    config(&a, 4, 99, 3, bots);
    config(&b, 4, 99, 3, bots);
    config(&c, 4, 99, 4, bots);
    a.duplicate = b.duplicate = c.duplicate = MATCH_DUP_ROTATE;
    char pa[300], pb[300], pc[300];
    snprintf(pa, sizeof pa, "%s/det-a.arbt", tmpdir);
    snprintf(pb, sizeof pb, "%s/det-b.arbt", tmpdir);
    snprintf(pc, sizeof pc, "%s/det-c.arbt", tmpdir);
    match_result ra, rb, rc;
    CHECK(play(&a, pa, &ra) == 0);
    CHECK(play(&b, pb, &rb) == 0);
    CHECK(play(&c, pc, &rc) == 0);
    scan sa, sb, sc;
    scan_file(pa, &sa);
    scan_file(pb, &sb);
    scan_file(pc, &sc);
    CHECK(sa.norm && sb.norm && strcmp(sa.norm, sb.norm) == 0);
    CHECK(ra.ndeals == rb.ndeals);
    for (uint32_t g = 0; g < ra.ndeals && g < rb.ndeals; g++)
        CHECK(ra.deals[g].seed == rb.deals[g].seed && memcmp(ra.deals[g].score, rb.deals[g].score,
                                                             sizeof ra.deals[g].score) == 0);
    for (int k = 0; k < 3; k++)
        CHECK(ra.bots[k].total == rb.bots[k].total && ra.bots[k].rank == rb.bots[k].rank);
    int same = 0;
    for (uint32_t g = 0; g < ra.ndeals && g < rc.ndeals; g++)
        same += ra.deals[g].seed == rc.deals[g].seed;
    CHECKF(same == 0, "%d deals identical under another secret", same);
    /* the hands sent differ too */
    const char *ha = strstr(sa.norm, "\"hand "), *hc = strstr(sc.norm, "\"hand ");
    CHECK(ha && hc && strncmp(ha, hc, 30) != 0);
    match_result_release(&ra);
    match_result_release(&rb);
    match_result_release(&rc);
    free(sa.norm);
    free(sb.norm);
    free(sc.norm);
}

/* Replace the digest record of data[0..len) by one over the new content. */
static size_t redigest(uint8_t *data, size_t len)
{
    size_t pos = 0, n;
    int type;
    while (pos < len) {
        arb_mp r;
        arb_mp_init(&r, data + pos, len - pos);
        uint32_t cnt;
        uint64_t ty;
        if (arb_mp_array(&r, &cnt) || arb_mp_uint(&r, &ty))
            return 0;
        arb_mp_init(&r, data + pos, len - pos);
        arb_mp_skip(&r);
        n = (len - pos) - arb_mp_left(&r);
        type = (int)ty;
        if (type == TR_DIGEST)
            break;
        pos += n;
    }
    uint8_t *p = data + pos;
    /* [11, 0, "sha256", bin 32] */
    *p++ = 0x94; *p++ = 11; *p++ = 0; *p++ = 0xa6;
    memcpy(p, "sha256", 6); p += 6;
    *p++ = 0xc4; *p++ = 32;
    crypto_hash_sha256(p, data, pos);
    return pos + 4 + 6 + 2 + 32;
}

static uint8_t *find(uint8_t *data, size_t len, const void *needle, size_t nlen)
{
    for (size_t i = 0; i + nlen <= len; i++)
        if (memcmp(data + i, needle, nlen) == 0)
            return data + i;
    return NULL;
}

static void test_fairness(void)
{
    const char *bots[3] = {random_bot, random_bot, random_bot};
    match_config cfg;
    config(&cfg, 3, 4242, 5, bots);
    char path[300], err[256];
    snprintf(path, sizeof path, "%s/fair.arbt", tmpdir);
    match_result res;
    CHECK(play(&cfg, path, &res) == 0);
    match_result_release(&res);
    uint8_t *data;
    size_t len;
    CHECK(tr_load(path, &data, &len, err, sizeof err) == 0);
    replay_report rep;
    CHECK(replay_judge(data, len, NULL, &rep) == 0 && rep.reproduced && rep.digest_rc == 0);
    uint8_t right[32], wrong[32];
    secret_of(right, 5);
    secret_of(wrong, 6);
    char msg[512];
    CHECKF(replay_check_secret(&rep.cfg, right, msg, sizeof msg) == 0, "%s", msg);
    CHECK(replay_check_secret(&rep.cfg, wrong, msg, sizeof msg) == ARB_ECORRUPT && strstr(msg, "wrong secret"));
    match_result_release(&rep.res);

    /* A key changed in the header (digest recomputed): the digest holds,
     * the re-judged deals are those of the changed key, but the key no
     * longer follows from the secret. */
    uint8_t *copy = malloc(len);
    memcpy(copy, data, len);
    uint8_t *k = find(copy, len, "\xa3key\xc4\x20", 6);
    CHECK(k != NULL);
    if (k) {
        k[6] ^= 1;
        size_t nlen = redigest(copy, len);
        CHECK(nlen == len);
        replay_report t;
        CHECK(replay_judge(copy, nlen, NULL, &t) == 0);
        CHECK(t.digest_rc == 0);
        CHECK(!t.reproduced);   /* other cards than the ones sent */
        CHECK(replay_check_secret(&t.cfg, right, msg, sizeof msg) == ARB_ECORRUPT
              && strstr(msg, "does not follow from the secret"));
        match_result_release(&t.res);
    }
    /* A version 1 transcript is refused by name. */
    memcpy(copy, data, len);
    const char vpat[9] = {'\xa7', 'v', 'e', 'r', 's', 'i', 'o', 'n', (char)TR_VERSION};   /* the current version */
    uint8_t *v = find(copy, len, vpat, 9);
    CHECK(v != NULL);
    if (v) {
        v[8] = 1;
        size_t nlen = redigest(copy, len);
        match_config hc;
        CHECK(tr_read_header(copy, nlen, &hc, err, sizeof err) == ARB_EUNSUPPORTED && strstr(err, "version 1"));
    }
    free(copy);
    free(data);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: deal_test deal_invert_bot deal_memory_bot random_bot\n");
        return 2;
    }
    invert_bot = argv[1];
    memory_bot = argv[2];
    random_bot = argv[3];
    snprintf(tmpdir, sizeof tmpdir, "/tmp/deal-test-XXXXXX");
    if (!mkdtemp(tmpdir))
        return 2;
    if (sodium_init() < 0)
        return 2;
    test_invert();
    test_memory(MATCH_DUP_ROTATE, 4, 3);
    test_memory(MATCH_DUP_ALL, 2, 6);
    test_determinism();
    test_fairness();
    if (!t_failed && arb_remove_tree(tmpdir) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return TEST_DONE("deal");
}
