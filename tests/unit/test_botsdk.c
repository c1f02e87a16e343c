/* test_botsdk.c — the C bot library on a scripted conversation: the
 * library runs in a child process on pipes, the test plays the referee and
 * checks every reply with the rules engine. */
#include "arbiter_bot.h"
#include "arb_limits.h"
#include "test_util.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int to_bot[2], from_bot[2];
static pid_t child;

static int choose_first(const abot_view *v, const abot_request *r, void *ctx)
{
    (void)v; (void)r; (void)ctx;
    return 0;
}

/* Picks the last choice that is not a pass, so replies depend on the hand
 * the library tracked. */
static int choose_last(const abot_view *v, const abot_request *r, void *ctx)
{
    (void)v; (void)ctx;
    if (r->decision != ABOT_PLAY)
        return r->nvalues - 1;
    int i = r->nmoves - 1;
    return i > 0 && r->moves[i].kind == DDZ_PASS ? i - 1 : i;
}

static void start(abot_choose choose)
{
    if (pipe(to_bot) || pipe(from_bot))
        exit(2);
    child = fork();
    if (child == 0) {
        close(to_bot[1]);
        close(from_bot[0]);
        _exit(abot_run_fds("sdktest", to_bot[0], from_bot[1], choose, NULL, NULL));
    }
    close(to_bot[0]);
    close(from_bot[1]);
}

static void send_line(const char *line)
{
    size_t n = strlen(line);
    if (write(to_bot[1], line, n) != (ssize_t)n || write(to_bot[1], "\n", 1) != 1)
        exit(2);
}

static char *recv_line(char *buf, size_t cap)
{
    size_t n = 0;
    while (n + 1 < cap) {
        char c;
        if (read(from_bot[0], &c, 1) != 1)
            break;
        if (c == '\n')
            break;
        buf[n++] = c;
    }
    buf[n] = 0;
    return buf;
}

static int finish(void)
{
    send_line("end 0");
    close(to_bot[1]);
    int status;
    waitpid(child, &status, 0);
    close(from_bot[0]);
    return status;
}

static const char *const header[] = {
    "arbiter 1 doudizhu",
    "match players 3 deals 1 rules standard seed 5",
    "option kicker_bomb=false",
    "clock move 1000 deal -1 bank 30000",
    "ready",
    "unknown-event with words",   /* must be ignored */
    "deal 0 seat 1",
    "hand 33456789TTJJQKKA2",
    "first 0",
};

static void test_conversation(void)
{
    char line[ARB_MAX_LINE];
    ddz_rules r;
    ddz_rules_preset(&r, "standard");
    start(choose_last);
    send_line(header[0]);
    CHECK(strcmp(recv_line(line, sizeof line), "bot 1 sdktest") == 0);
    for (size_t i = 1; i < sizeof header / sizeof header[0]; i++)
        send_line(header[i]);
    send_line("bid 0 1");
    send_line("ask bid time 1000 -1 30000 legal pass 2 3");
    CHECK(strcmp(recv_line(line, sizeof line), "bid 3") == 0);
    send_line("bid 1 3");
    send_line("landlord 1 3");
    send_line("kitty 4BR");
    /* Leading with the kitty in hand: the largest-rank lead it computes
     * must be a legal lead from 33456789TTJJQKKA2 + 4BR. */
    send_line("ask play time 1000 -1 30000");
    recv_line(line, sizeof line);
    ddz_cards hand, cards, primary;
    ddz_cards_parse(&r, "334456789TTJJQKKA2BR", &hand);
    CHECKF(strncmp(line, "play ", 5) == 0, "%s", line);
    ddz_move chosen;
    char why[256];
    CHECKF(ddz_play_parse(&r, line + 5, &cards, &primary) == 0
           && ddz_validate(&r, hand, NULL, cards, primary, &chosen, why, sizeof why) == 0, "%s: %s", line, why);
    /* Its own play comes back as an event; then it must follow a pair. */
    char ev[ARB_MAX_LINE + 64];
    char kind_text[32];
    snprintf(kind_text, sizeof kind_text, "%s", ddz_kind_name((ddz_kind)chosen.kind));
    snprintf(ev, sizeof ev, "play 1 %s %s", line + 5, kind_text);
    send_line(ev);
    hand -= cards;
    send_line("play 2 99 pair");
    send_line("ask play beat 2 99 pair time 1000 -1 30000");
    recv_line(line, sizeof line);
    ddz_move prev;
    ddz_cards nine;
    ddz_cards_parse(&r, "99", &nine);
    ddz_classify(&r, nine, &prev, 1);
    if (strcmp(line, "pass") == 0) {
        cards = 0;
        primary = 0;
    } else {
        CHECK(ddz_play_parse(&r, line + 5, &cards, &primary) == 0);
    }
    CHECKF(ddz_validate(&r, hand, &prev, cards, primary, &chosen, why, sizeof why) == 0, "%s: %s", line, why);
    CHECKF(cards != 0, "a pair to beat 99 was available: %s", line);
    CHECK(WIFEXITED(finish()));
}

/* The computed leads equal the engine's, whatever the bot picks. */
static int seen_moves = -1;
static int count_moves(const abot_view *v, const abot_request *r, void *ctx)
{
    (void)v; (void)ctx;
    if (r->decision == ABOT_PLAY)
        fprintf(stderr, "%d\n", r->nmoves);
    return 0;
}

static void test_leads_match_engine(void)
{
    ddz_rules r;
    ddz_rules_preset(&r, "standard");
    ddz_cards hand;
    ddz_cards_parse(&r, "33456789TTJJQKKA2", &hand);
    ddz_move *buf = malloc(ARB_MAX_MOVES * sizeof *buf);
    int want = ddz_leads(&r, hand, buf, ARB_MAX_MOVES);
    free(buf);
    /* run the bot with its stderr captured into a pipe */
    int errp[2];
    if (pipe(errp))
        exit(2);
    if (pipe(to_bot) || pipe(from_bot))
        exit(2);
    child = fork();
    if (child == 0) {
        dup2(errp[1], 2);
        close(errp[0]);
        close(to_bot[1]);
        close(from_bot[0]);
        _exit(abot_run_fds("count", to_bot[0], from_bot[1], count_moves, NULL, NULL));
    }
    close(errp[1]);
    close(to_bot[0]);
    close(from_bot[1]);
    char line[ARB_MAX_LINE];
    for (size_t i = 0; i < sizeof header / sizeof header[0]; i++)
        send_line(header[i]);
    recv_line(line, sizeof line);
    send_line("landlord 0 1");
    send_line("kitty 345");
    send_line("ask play time 1000 -1 30000");
    recv_line(line, sizeof line);
    finish();
    char out[64] = "";
    ssize_t n = read(errp[0], out, sizeof out - 1);
    close(errp[0]);
    out[n > 0 ? n : 0] = 0;
    seen_moves = atoi(out);
    CHECKF(seen_moves == want, "the library computed %d leads, the engine %d", seen_moves, want);
}

/* A referee line far longer than the limit is skipped, not fatal. */
static void test_overlong_line(void)
{
    start(choose_first);
    char line[ARB_MAX_LINE];
    send_line(header[0]);
    recv_line(line, sizeof line);
    size_t big = ARB_MAX_REQUEST + 1000;
    char *junk = malloc(big + 1);
    memset(junk, 'x', big);
    junk[big] = 0;
    send_line(junk);
    free(junk);
    for (size_t i = 1; i < sizeof header / sizeof header[0]; i++)
        send_line(header[i]);
    send_line("ask bid time 1000 -1 30000 legal pass 1");
    CHECK(strcmp(recv_line(line, sizeof line), "pass") == 0);
    CHECK(WIFEXITED(finish()));
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    test_conversation();
    test_leads_match_engine();
    test_overlong_line();
    return TEST_DONE("botsdk");
}
