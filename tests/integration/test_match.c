/* test_match.c — whole matches between real bot processes: honest play and
 * its replay and re-run, determinism, tampered transcripts, every penalty
 * policy, and the hostile bot suite. For each hostile bot: the verdict and
 * penalty it earns, the referee stays up, the other seats' results stand,
 * and no process or descriptor is left behind.
 *
 * argv: random_bot hostile_bot first_legal.py */
#include "live.h"
#include "ddz.h"
#include "arb_file.h"
#include "match.h"
#include "replay.h"
#include "record.h"
#include "transcript.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "../unit/test_util.h"
#include "../lib/test_live.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *random_bot, *hostile_bot, *first_legal;
static char tmpdir[256];
static int sandbox_mode = LIVE_SANDBOX_AUTO;
static int last_uid_base = -1;   /* the bot uids of the last match (root only) */


static int leftovers(void)
{
    return test_leftovers(last_uid_base);
}

static void set_bot(match_bot_cfg *b, const char *name, const char *prog, const char *a1, const char *a2, const char *a3)
{
    test_set_bot(b, name, (const char *const[]){prog, a1, a2, a3, NULL});
}

static void base_config(match_config *cfg, uint32_t deals, uint64_t seed)
{
    match_config_init(cfg, &arb_game_doudizhu);
    cfg->deals = deals;
    cfg->seed = seed;
    /* A fixed secret: the match is reproducible from seed + secret. */
    uint8_t secret[32];
    for (int i = 0; i < 32; i++)
        secret[i] = (uint8_t)(0x5a ^ i);
    char label[64];
    snprintf(label, sizeof label, "match|%llu", (unsigned long long)seed);
    CHECK(match_set_key(cfg, secret, label) == 0);
    cfg->nbots = 3;
    cfg->move_ms = 500;    /* honest bots need ~1 ms; the margin is for a loaded machine */
    cfg->bank_ms = 1000;
    cfg->startup_ms = 3000;
    set_bot(&cfg->bots[0], "r0", random_bot, NULL, NULL, NULL);
    set_bot(&cfg->bots[1], "r1", random_bot, NULL, NULL, NULL);
    set_bot(&cfg->bots[2], "first", first_legal, NULL, NULL, NULL);
}

/* Play a match with a transcript at path; returns match_run's code. */
static int play(const match_config *cfg, const char *path, match_result *res, char digest[65])
{
    return test_play_live(cfg, path, sandbox_mode, res, digest, &last_uid_base);
}

static int64_t sum_totals(const match_result *res)
{
    int64_t s = 0;
    for (int b = 0; b < res->nbots; b++)
        s += res->bots[b].total;
    return s;
}

static uint32_t penalties_of(const match_result *res, int bot)
{
    return res->bots[bot].penalties;
}

static void load(const char *path, uint8_t **data, size_t *len)
{
    test_load_transcript(path, data, len);
}

/* The stderr a bot left in the transcript (its botend record). */
typedef struct stderr_find {
    int bot;
    char text[4096];
} stderr_find;

static int find_stderr(void *ctx, int type, const uint8_t *rec, size_t n)
{
    stderr_find *f = ctx;
    if (type != TR_BOTEND)
        return 0;
    char d[4096 + 256];
    tr_describe(rec, n, d, sizeof d);
    /* botend BOT "sandbox" status <N bytes>: read the raw bytes instead */
    const uint8_t *p = rec + n;
    (void)p;
    int bot;
    if (strstr(d, "botend ") && sscanf(d + 7, "%d", &bot) == 1 && bot == f->bot) {
        /* the stderr bin is the last field: find it as the tail of rec */
        const char *needle = "network:";
        const uint8_t *hit = memmem(rec, n, needle, strlen(needle));
        if (hit) {
            size_t k = n - (size_t)(hit - rec);
            if (k >= sizeof f->text)
                k = sizeof f->text - 1;
            memcpy(f->text, hit, k);
            f->text[k] = 0;
        }
    }
    return 0;
}

static void test_honest_and_replay(void)
{
    match_config cfg;
    base_config(&cfg, 8, 42);
    cfg.duplicate = MATCH_DUP_ROTATE;
    char path[300], digest[65];
    snprintf(path, sizeof path, "%s/honest.arbt", tmpdir);
    match_result res;
    CHECK(play(&cfg, path, &res, digest) == 0);
    CHECK(res.ndeals == 24);
    CHECK(sum_totals(&res) == 0);
    for (int b = 0; b < 3; b++) {
        CHECKF(res.bots[b].penalties == 0, "bot %d: %u penalties", b, res.bots[b].penalties);
        CHECK(res.bots[b].decisions > 0);
    }
    /* Duplicate: every deal's cards were played in 3 seatings, each bot in
     * each seat once per deal; seating-major (all 8 deals, then all 8
     * again in the next seating). */
    for (uint32_t k = 0; k < 8; k++) {
        unsigned seen[3] = {0, 0, 0};
        for (uint32_t g = k; g < 24; g += 8) {
            CHECK(res.deals[g].deal == k && res.deals[g].seed == res.deals[k].seed);
            CHECK(res.deals[g].seating == g / 8);
            for (int s = 0; s < 3; s++)
                seen[res.deals[g].bot_at[s]] |= 1u << s;
        }
        CHECK(seen[0] == 7 && seen[1] == 7 && seen[2] == 7);
    }
    CHECK(strlen(digest) == 64);

    /* Same seed again: the same deals, scores and totals. */
    match_result again;
    char path2[300], digest2[65];
    snprintf(path2, sizeof path2, "%s/honest2.arbt", tmpdir);
    CHECK(play(&cfg, path2, &again, digest2) == 0);
    bool same = again.ndeals == res.ndeals;
    for (uint32_t g = 0; same && g < res.ndeals; g++)
        same = memcmp(again.deals[g].score, res.deals[g].score, sizeof res.deals[g].score) == 0;
    CHECK(same);
    for (int b = 0; b < 3; b++)
        CHECK(again.bots[b].total == res.bots[b].total);
    match_result_release(&again);

    /* Replay re-judges and reproduces; --rerun replays the same replies. */
    uint8_t *data;
    size_t len;
    load(path, &data, &len);
    replay_report rep;
    CHECK(replay_judge(data, len, NULL, &rep) == 0);
    CHECK(rep.digest_rc == 0 && strcmp(rep.digest, digest) == 0);
    CHECKF(rep.reproduced, "%s", rep.divergence);
    for (int b = 0; b < 3; b++)
        CHECK(rep.res.bots[b].total == res.bots[b].total);
    match_result_release(&rep.res);
    live_options lo = {0};
    if (TEST_SANITIZED)
        lo.limits.address_space = UINT64_MAX;
    CHECK(replay_rerun(data, len, &lo, &rep) == 0);
    CHECKF(rep.reproduced, "rerun: %s", rep.divergence);
    match_result_release(&rep.res);

    /* Tampering 1: one byte of a reply changed, digest left: detected. */
    uint8_t *bad = malloc(len);
    memcpy(bad, data, len);
    const char needle[] = "bid 1";
    uint8_t *hit = memmem(bad, len, "\xa4pass", 5);
    CHECK(hit != NULL);
    if (hit) {
        memcpy(hit, "\xa4pasx", 5);
        CHECK(replay_judge(bad, len, NULL, &rep) == 0);
        CHECK(rep.digest_rc == ARB_ECORRUPT);
        CHECK(!rep.reproduced);   /* "pasx" is malformed: the penalty is not in the record */
        match_result_release(&rep.res);
    }
    (void)needle;

    /* Tampering 2: a recorded reply changed AND the digest recomputed: the
     * digest passes, re-judging does not. Find the first recorded "pass"
     * reply of a bid and make it "3" (a different, legal-looking bid). */
    memcpy(bad, data, len);
    uint8_t *rec = memmem(bad, len, "\xa4pass", 5);
    size_t cut = 0;
    /* the digest record is the last 2+1+7+2+32 = 44 bytes */
    cut = len - 44;
    CHECK(bad[cut] == 0x94);
    if (rec && bad[cut] == 0x94) {
        memcpy(rec, "\xa4" "bid3", 5);
        uint8_t digest_bin[32];
        crypto_hash_sha256(digest_bin, bad, cut);
        memcpy(bad + len - 32, digest_bin, 32);
        CHECK(replay_judge(bad, len, NULL, &rep) == 0);
        CHECK(rep.digest_rc == 0);
        CHECK(!rep.reproduced);
        CHECKF(strstr(rep.divergence, "game 0") != NULL, "%s", rep.divergence);
        match_result_release(&rep.res);
    }
    /* Tampering 3: cut short: no digest, and the judge runs past the end. */
    CHECK(replay_judge(data, len / 2, NULL, &rep) == 0);   /* the header reads; the verdict does not */
    CHECK(rep.digest_rc != 0 && !rep.reproduced);
    match_result_release(&rep.res);
    free(bad);
    free(data);
    match_result_release(&res);
}

typedef struct hostile_case {
    const char *mode;
    const char *arg;          /* N (the decision it misbehaves at) */
    const char *arg2;
    match_reason reason;      /* MATCH_R_NONE: no penalty expected */
    uint8_t policy;
    match_reason alt;         /* also accepted (MATCH_R_NONE: nothing else) */
} hostile_case;

static void run_hostile(const hostile_case *c)
{
    match_config cfg;
    base_config(&cfg, 2, 7);
    cfg.policy = c->policy;
    set_bot(&cfg.bots[1], "hostile", hostile_bot, c->mode, c->arg ? c->arg : "2", c->arg2);
    char path[300], digest[65];
    snprintf(path, sizeof path, "%s/hostile-%s.arbt", tmpdir, c->mode);
    int fds = test_open_fds();
    match_result res;
    int rc = play(&cfg, path, &res, digest);
    CHECKF(rc == 0, "%s: match_run %s", c->mode, arb_strerror(rc));
    /* The referee finished the match; every game has a result. */
    CHECKF(res.ndeals == 2, "%s: %u games", c->mode, res.ndeals);
    CHECKF(sum_totals(&res) == 0, "%s: totals do not sum to zero", c->mode);
    /* The honest bots were never penalised. */
    CHECKF(penalties_of(&res, 0) == 0 && penalties_of(&res, 2) == 0,
           "%s: an honest bot was penalised (bot 0: timeout %u crashed %u exited %u handshake %u; bot 2: timeout %u "
           "crashed %u exited %u handshake %u)", c->mode, res.bots[0].by_reason[MATCH_R_TIMEOUT],
           res.bots[0].by_reason[MATCH_R_CRASHED], res.bots[0].by_reason[MATCH_R_EXITED],
           res.bots[0].by_reason[MATCH_R_HANDSHAKE], res.bots[2].by_reason[MATCH_R_TIMEOUT],
           res.bots[2].by_reason[MATCH_R_CRASHED], res.bots[2].by_reason[MATCH_R_EXITED],
           res.bots[2].by_reason[MATCH_R_HANDSHAKE]);
    if (c->alt != MATCH_R_NONE && res.bots[1].by_reason[c->alt] >= 1)
        CHECK(res.bots[1].penalties == res.bots[1].by_reason[c->alt]);
    else if (c->reason == MATCH_R_NONE)
        CHECKF(res.bots[1].penalties == 0, "%s: %u unexpected penalties", c->mode, res.bots[1].penalties);
    else
        CHECKF(res.bots[1].by_reason[c->reason] >= 1, "%s: expected %s, got %u penalties (timeout %u illegal %u "
               "malformed %u long %u closed %u exited %u crashed %u handshake %u)", c->mode,
               match_reason_name(c->reason), res.bots[1].penalties, res.bots[1].by_reason[1], res.bots[1].by_reason[2],
               res.bots[1].by_reason[3], res.bots[1].by_reason[4], res.bots[1].by_reason[5], res.bots[1].by_reason[6],
               res.bots[1].by_reason[7], res.bots[1].by_reason[8]);
    if (c->policy == MATCH_FORFEIT_MATCH && c->reason != MATCH_R_NONE) {
        CHECKF(res.bots[1].forfeited && res.bots[1].rank == 3, "%s: forfeit-match not applied", c->mode);
    }
    /* Nothing left behind. */
    CHECKF(test_open_fds() == fds, "%s: descriptors %d before, %d after", c->mode, fds, test_open_fds());
    CHECKF(leftovers() == 0, "%s: processes left", c->mode);
    /* And the transcript re-judges to the same result. */
    uint8_t *data;
    size_t len;
    load(path, &data, &len);
    if (strcmp(c->mode, "stderr") == 0) {
        /* 1 MiB written, ARB_STDERR_CAP kept */
        CHECKF(strlen(res.bots[1].stderr_tail) > 0, "stderr: nothing kept");
        CHECKF(len < (size_t)ARB_STDERR_CAP + 200000, "stderr: transcript of %zu bytes", len);
    }
    if (strcmp(c->mode, "network") == 0) {
        /* The sandbox has no network: every connection attempt failed. */
        stderr_find f = {.bot = 1};
        tr_each(data, len, find_stderr, &f);
        CHECKF(strstr(f.text, "network: 127.0.0.1:9 refused") != NULL, "network: %s", f.text);
        CHECKF(strstr(f.text, "network: 1.1.1.1:53 refused") != NULL, "network: %s", f.text);
        CHECKF(strstr(f.text, "connected") == NULL, "network: %s", f.text);
    }
    replay_report rep;
    CHECK(replay_judge(data, len, NULL, &rep) == 0);
    CHECKF(rep.reproduced, "%s: replay: %s", c->mode, rep.divergence);
    match_result_release(&rep.res);
    free(data);
    match_result_release(&res);
}

static void test_hostile_suite(void)
{
    static const hostile_case cases[] = {
        {"sleep", NULL, NULL, MATCH_R_TIMEOUT, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"spin", NULL, NULL, MATCH_R_TIMEOUT, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"flood", NULL, NULL, MATCH_R_TOO_LONG, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"hugeline", NULL, NULL, MATCH_R_TOO_LONG, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"exit", NULL, NULL, MATCH_R_EXITED, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"crash", "5", NULL, MATCH_R_CRASHED, MATCH_FORFEIT_MATCH, MATCH_R_NONE},
        {"children", NULL, NULL, MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"forkbomb", NULL, NULL, MATCH_R_TIMEOUT, MATCH_AUTOPLAY, MATCH_R_NONE},
        /* Filling 1 GiB (RLIMIT_AS) may or may not fit in the clock: the
         * verdict depends on the machine, the referee's survival does not. */
        {"alloc", NULL, NULL, MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_TIMEOUT},
        {"bigfile", NULL, NULL, MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"network", NULL, NULL, MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_NONE},
        /* Inside bubblewrap the sandbox keeps its own copy of the bot's
         * stdout: a closed stdout is then a bot that does not answer. */
        {"closeout", NULL, NULL, MATCH_R_CLOSED, MATCH_AUTOPLAY, MATCH_R_TIMEOUT},
        {"garbage", NULL, NULL, MATCH_R_MALFORMED, MATCH_FORFEIT_DEAL, MATCH_R_NONE},
        {"illegal", NULL, NULL, MATCH_R_ILLEGAL, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"othercards", "4", NULL, MATCH_R_ILLEGAL, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"late", NULL, "900", MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_NONE},     /* 900 ms: 500 free + 400 of the 1000 bank */
        {"stderr", NULL, NULL, MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"badhello", NULL, NULL, MATCH_R_HANDSHAKE, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"silenthello", NULL, NULL, MATCH_R_HANDSHAKE, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"exitnow", NULL, NULL, MATCH_R_HANDSHAKE, MATCH_AUTOPLAY, MATCH_R_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (TEST_SANITIZED && strcmp(cases[i].mode, "alloc") == 0) {
            fprintf(stderr, "hostile: alloc skipped: sanitizer build, no address-space limit\n");
            continue;
        }
        hostile_case c = cases[i];
        if (TEST_SANITIZED && c.reason == MATCH_R_CRASHED)
            c.alt = MATCH_R_EXITED;   /* ASan reports the fault and exits */
        fprintf(stderr, "hostile: %s\n", c.mode);
        run_hostile(&c);
    }
    /* Again without bubblewrap (rlimits, and as root a dedicated uid and
     * an empty network namespace): the cases that lean on the sandbox. */
    static const hostile_case bare[] = {
        {"crash", "5", NULL, MATCH_R_CRASHED, MATCH_FORFEIT_MATCH, MATCH_R_NONE},
        {"children", NULL, NULL, MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"forkbomb", NULL, NULL, MATCH_R_TIMEOUT, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"closeout", NULL, NULL, MATCH_R_CLOSED, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"exit", NULL, NULL, MATCH_R_EXITED, MATCH_AUTOPLAY, MATCH_R_NONE},
        {"network", NULL, NULL, MATCH_R_NONE, MATCH_AUTOPLAY, MATCH_R_NONE},
    };
    sandbox_mode = LIVE_SANDBOX_NONE;
    for (size_t i = 0; i < sizeof bare / sizeof bare[0]; i++) {
        if (strcmp(bare[i].mode, "network") == 0 && geteuid() != 0) {
            fprintf(stderr, "hostile (no bubblewrap): network skipped: not root, no network namespace\n");
            continue;
        }
        hostile_case c = bare[i];
        if (TEST_SANITIZED && c.reason == MATCH_R_CRASHED)
            c.alt = MATCH_R_EXITED;
        fprintf(stderr, "hostile (no bubblewrap): %s\n", c.mode);
        run_hostile(&c);
    }
    sandbox_mode = LIVE_SANDBOX_AUTO;
}

/* A bot that keeps misbehaving under autoplay strikes out: forfeit-match. */
static void test_strikes(void)
{
    match_config cfg;
    base_config(&cfg, 3, 11);
    cfg.strikes = 2;
    set_bot(&cfg.bots[1], "quitter", hostile_bot, "exit", "1", NULL);
    char path[300], digest[65];
    snprintf(path, sizeof path, "%s/strikes.arbt", tmpdir);
    match_result res;
    CHECK(play(&cfg, path, &res, digest) == 0);
    CHECK(res.bots[1].strikes == 3);
    CHECK(res.bots[1].forfeited && res.bots[1].rank == 3);
    CHECK(res.ndeals == 3 && sum_totals(&res) == 0);
    /* every game after the forfeit is scored as a forfeit of that bot */
    CHECK(res.deals[2].forfeit_bot == 1);
    match_result_release(&res);
}

/* The bank: a bot that is late inside its bank is not penalised, and its
 * bank shrinks; a bot late beyond it times out. */
static void test_bank(void)
{
    match_config cfg;
    base_config(&cfg, 1, 5);
    cfg.move_ms = 200;
    cfg.bank_ms = 1000;
    set_bot(&cfg.bots[1], "slow", hostile_bot, "late", "1", "500");
    char path[300], digest[65];
    snprintf(path, sizeof path, "%s/bank.arbt", tmpdir);
    match_result res;
    CHECK(play(&cfg, path, &res, digest) == 0);
    CHECKF(res.bots[1].penalties == 0, "%u penalties", res.bots[1].penalties);
    CHECKF(res.bots[1].bank_left_ms <= 750 && res.bots[1].bank_left_ms >= 500, "bank left %lld ms",
           (long long)res.bots[1].bank_left_ms);
    match_result_release(&res);
    cfg.bank_ms = 100;
    CHECK(play(&cfg, path, &res, digest) == 0);
    CHECK(res.bots[1].by_reason[MATCH_R_TIMEOUT] >= 1);
    /* the late reply arrives during the next request: dropped, not taken
     * as the answer to the wrong question */
    CHECK(res.bots[1].by_reason[MATCH_R_ILLEGAL] == 0 && res.bots[1].by_reason[MATCH_R_MALFORMED] == 0);
    match_result_release(&res);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_match RANDOM_BOT HOSTILE_BOT FIRST_LEGAL_PY\n");
        return 2;
    }
    random_bot = argv[1];
    hostile_bot = argv[2];
    first_legal = argv[3];
    if (sodium_init() < 0)
        return 2;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/arbiter-match-test-%d", (int)getpid());
    mkdir(tmpdir, 0755);
    int fds = test_open_fds();
    test_honest_and_replay();
    test_hostile_suite();
    test_strikes();
    test_bank();
    CHECKF(test_open_fds() == fds, "descriptors: %d before, %d after", fds, test_open_fds());
    CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD);
    if (arb_remove_tree(tmpdir) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return TEST_DONE("match");
}
