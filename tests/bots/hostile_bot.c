/* hostile_bot.c — a bot that misbehaves on purpose, for the referee's
 * hostile-bot suite. It plays honestly (a random legal choice from its
 * match seed, like random_bot) except on its Nth decision (counted from 1
 * over the match), where it does what MODE says:
 *
 *   hostile_bot [--dabang] MODE [N] [ARG]
 *
 * With --dabang it sits at a Da Bang table (abot_dab_run) and misbehaves
 * the same way; its honest choice is then a random item of the request.
 *
 *   sleep        sleep forever
 *   spin         burn CPU forever
 *   flood        write to stdout forever, never a newline
 *   hugeline     reply with one 1 MiB line, then play honestly
 *   exit         exit(0) at once
 *   crash        die of SIGSEGV
 *   crashsay     write a last word on stderr, an escape sequence in it
 *                ("hostile_bot: crashing now ESC[2J"), then die of SIGSEGV
 *   children     fork 3 children that sleep forever (one in a new session,
 *                one in a new process group), then play honestly
 *   forkbomb     fork without end (children fork too); never answer
 *   alloc        allocate and touch memory without end; when malloc fails,
 *                play honestly
 *   bigfile      write big.bin in the working directory without end; when
 *                a write fails, play honestly
 *   network      try TCP to 127.0.0.1:PORT (ARG, else $HOSTILE_PORT, else 9)
 *                and to 1.1.1.1:53, 1 s each; report on stderr as
 *                "network: IP:PORT connected" or "network: IP:PORT refused:
 *                ERRNO TEXT"; then play honestly
 *   closeout     close stdout, then sleep forever
 *   garbage      reply "hello there", then play honestly
 *   stray        write a stray line ("thinking...") on stdout before its
 *                honest reply: every later reply is one request late
 *   illegal      reply with cards it does not hold (a rank absent from its
 *                hand, else one more of a rank than it holds) or a bid
 *                above the highest, then play honestly
 *   othercards   reply with a card another player holds (the same, among
 *                cards neither played nor in its hand), then honestly
 *   late         sleep ARG ms (default 1500), then answer honestly
 *   stderr       write 1 MiB to stderr, then answer honestly
 *   badhello     answer the handshake with garbage (N is not used)
 *   silenthello  never answer the handshake
 *   exitnow      exit(3) before the handshake
 *   honest       always play honestly
 *
 * illegal and othercards wait for a decision they can cheat at (a bid or a
 * play for illegal, a play for othercards) when the Nth is not one. At a
 * Da Bang table illegal declares three jokers it does not hold when asked
 * to declare, or plays as many copies of a card its hand lacks as the
 * trick needs (ARG "declare" or "play": only that one); othercards waits for a play and plays a card still out
 * (not in its hand, not seen played: another hand or the kitty holds it). */
#include "arbiter_bot.h"
#include "arb_num.h"
#include "arb_rng.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct hostile {
    const char *mode;
    int when;                  /* the decision to misbehave at, from 1 */
    const char *arg;
    int decisions;
    bool done;
    arb_rng rng;
    bool seeded;
} hostile;

/* Write all of s on stdout, unbuffered: a reply must reach the referee now. */
static void raw(const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(1, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static void say(const char *s) { raw(s, strlen(s)); }

static void forever(void)
{
    for (;;)
        pause();
}

static void try_connect(const char *ip, int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        fprintf(stderr, "network: %s:%d refused: no socket: %s\n", ip, port, strerror(errno));
        return;
    }
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, ip, &a.sin_addr);
    int rc = connect(fd, (struct sockaddr *)&a, sizeof a);
    int err = rc == 0 ? 0 : errno;
    if (rc != 0 && errno == EINPROGRESS) {
        struct pollfd p = {fd, POLLOUT, 0};
        socklen_t len = sizeof err;
        err = ETIMEDOUT;
        if (poll(&p, 1, 1000) == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
            err = errno;
    }
    if (err == 0)
        fprintf(stderr, "network: %s:%d connected\n", ip, port);
    else
        fprintf(stderr, "network: %s:%d refused: %s\n", ip, port, strerror(err));
    close(fd);
}

/* Cards this seat does not hold: one more of a rank than it has, a rank
 * it lacks first. With `elsewhere`, only a card still out (not played, not
 * in its hand), so another seat holds it (or the face-down kitty). Returns
 * 0 when no such card exists. */
static ddz_cards not_held(const abot_view *v, bool elsewhere)
{
    ddz_cards out = abot_outstanding(v);
    for (unsigned lacking = 0; lacking <= 1; lacking++)
        for (int x = 0; x < DDZ_NRANKS; x++) {
            unsigned held = ddz_count(v->hand, x);
            unsigned most = x < DDZ_RB ? 4u * v->rules->packs : v->rules->packs;
            if ((lacking == 0) != (held == 0) || held >= most || (elsewhere && ddz_count(out, x) == 0))
                continue;
            return (ddz_cards)(held + 1) << (4 * x);
        }
    return 0;
}

/* A fault the kernel raises: unlike raise(SIGSEGV), it also kills a bot
 * that is pid 1 of its own pid namespace (the sandbox), where signals it
 * sends itself with the default action are ignored. */
static void crash(void)
{
    volatile char *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page != MAP_FAILED)
        page[0] = 1;
    raise(SIGSEGV);
    abort();
}

static void spin(void)
{
    for (volatile unsigned long i = 0;; i++)
        ;
}

static void flood(void)
{
    static char junk[1 << 12];
    memset(junk, 'x', sizeof junk);
    for (;;)
        raw(junk, sizeof junk);
}

static void children(void)
{
    for (int i = 0; i < 3; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            if (i == 0)
                setsid();
            else if (i == 1)
                setpgid(0, 0);
            forever();
        }
    }
}

static void alloc_forever(void)
{
    const size_t chunk = 16u << 20;
    for (;;) {
        char *p = malloc(chunk);
        if (!p)
            return;            /* what is held stays held: play on with it */
        memset(p, 1, chunk);
    }
}

static void bigfile(void)
{
    signal(SIGXFSZ, SIG_IGN);    /* past RLIMIT_FSIZE: EFBIG instead of death */
    static char block[1 << 16];
    int fd = open("big.bin", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    while (fd >= 0 && write(fd, block, sizeof block) == (ssize_t)sizeof block)
        ;
    if (fd >= 0)
        close(fd);
}

static void stderr_flood(void)
{
    static char noise[1 << 20];
    memset(noise, 'e', sizeof noise);
    noise[sizeof noise - 1] = '\n';
    for (size_t off = 0; off < sizeof noise;) {
        ssize_t w = write(2, noise + off, sizeof noise - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        off += (size_t)w;
    }
}

/* The misbehaviours every game shares. Returns the index to play honestly
 * after it, ABOT_NO_REPLY when the misbehaviour was the reply, or -1 when
 * the mode is not one of them (the game's own: illegal, othercards). */
static int misbehave_common(const hostile *h, int honest)
{
    const char *mode = h->mode;
    if (strcmp(mode, "sleep") == 0)
        forever();
    if (strcmp(mode, "spin") == 0)
        spin();
    if (strcmp(mode, "flood") == 0)
        flood();
    if (strcmp(mode, "hugeline") == 0) {
        static char big[1 << 20];
        memset(big, 'x', sizeof big - 1);
        big[sizeof big - 1] = '\n';
        raw(big, sizeof big);
        return ABOT_NO_REPLY;    /* the huge line was the reply */
    }
    if (strcmp(mode, "exit") == 0)
        exit(0);
    if (strcmp(mode, "crash") == 0)
        crash();
    if (strcmp(mode, "crashsay") == 0) {
        fputs("hostile_bot: crashing now \033[2J\n", stderr);
        fflush(stderr);
        crash();
    }
    if (strcmp(mode, "children") == 0) {
        children();
        return honest;
    }
    if (strcmp(mode, "forkbomb") == 0)
        for (;;)
            fork();
    if (strcmp(mode, "alloc") == 0) {
        alloc_forever();
        return honest;
    }
    if (strcmp(mode, "bigfile") == 0) {
        bigfile();
        return honest;
    }
    if (strcmp(mode, "network") == 0) {
        const char *port = h->arg ? h->arg : getenv("HOSTILE_PORT");
        try_connect("127.0.0.1", (int)arb_num_or(port, 9));
        try_connect("1.1.1.1", 53);
        return honest;
    }
    if (strcmp(mode, "closeout") == 0) {
        close(1);
        forever();
    }
    if (strcmp(mode, "stray") == 0) {
        say("thinking...\n");
        return honest;
    }
    if (strcmp(mode, "garbage") == 0) {
        say("hello there\n");
        return ABOT_NO_REPLY;
    }
    if (strcmp(mode, "late") == 0) {
        long ms = arb_num_or(h->arg, 1500);
        struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
        while (nanosleep(&t, &t) != 0 && errno == EINTR)
            ;
        return honest;
    }
    if (strcmp(mode, "stderr") == 0) {
        stderr_flood();
        return honest;
    }
    if (strcmp(mode, "illegal") == 0 || strcmp(mode, "othercards") == 0)
        return -1;
    return honest;
}

/* Misbehave on this Dou Dizhu decision: as misbehave_common, and -1 when
 * this decision is not one the mode can misbehave at (try the next one). */
static int misbehave(hostile *h, const abot_view *v, const abot_request *r, int honest)
{
    const char *mode = h->mode;
    char line[2 * DDZ_MAX_CARDS + 16];
    int common = misbehave_common(h, honest);
    if (common != -1)
        return common;
    bool bid = strcmp(mode, "illegal") == 0 && r->decision == ABOT_BID;
    ddz_cards c = not_held(v, strcmp(mode, "othercards") == 0);
    if (bid) {
        int over = v->rules->max_bid + 1;
        snprintf(line, sizeof line, "bid %d\n", over > 9 ? 9 : over);
    } else if (r->decision == ABOT_PLAY && c) {
        char text[2 * DDZ_MAX_CARDS + 2];
        ddz_cards_format(c, text, sizeof text);
        snprintf(line, sizeof line, "play %s\n", text);
    } else {
        return -1;
    }
    say(line);
    return ABOT_NO_REPLY;
}

/* The same at a Da Bang table: illegal cheats at a declaration or a play,
 * othercards at a play (the lead or a follow: as many cards as the trick
 * needs); else they wait. */
static int misbehave_dab(hostile *h, const abot_dab_view *v, const abot_dab_request *r, int honest)
{
    int common = misbehave_common(h, honest);
    if (common != -1)
        return common;
    /* ARG "declare" or "play": cheat at that decision only */
    if (h->arg && strcmp(h->arg, r->decision == ABOT_DAB_DECLARE ? "declare" : "play") != 0)
        return -1;
    if (r->decision == ABOT_DAB_DECLARE && strcmp(h->mode, "illegal") == 0) {
        /* three jokers it does not hold: well formed, not offered */
        int joker = v->hand.n[DAB_RJ] < 3 ? DAB_RJ : v->hand.n[DAB_BJ] < 3 ? DAB_BJ : -1;
        if (joker < 0)
            return -1;
        say(joker == DAB_RJ ? "RJRJRJ:S\n" : "BJBJBJ:S\n");
        return ABOT_NO_REPLY;
    }
    if (r->decision != ABOT_DAB_PLAY)
        return -1;
    bool elsewhere = strcmp(h->mode, "othercards") == 0;
    dab_hand out = abot_dab_outstanding(v);
    int card = -1;
    for (int c = 0; c < DAB_NCARDS && card < 0; c++)
        if (v->hand.n[c] == 0 && (!elsewhere || out.n[c] > 0))
            card = c;
    if (card < 0)
        return -1;
    int need = v->ntrick > 0 ? v->trick[0].n : 1;     /* a follow: as many as were led */
    dab_play p = {.n = (uint8_t)need};
    for (int i = 0; i < need; i++)
        p.c[i] = (uint8_t)card;
    char text[4 * DAB_MAX_PLAY + 1], line[sizeof text + 16];
    dab_format_play(&p, text, sizeof text);
    snprintf(line, sizeof line, "play %s\n", text);
    say(line);
    return ABOT_NO_REPLY;
}

static int choose(const abot_view *v, const abot_request *r, void *ctx)
{
    hostile *h = ctx;
    if (!h->seeded) {
        arb_rng_seed(&h->rng, v->seed);
        h->seeded = true;
    }
    int n = r->decision == ABOT_PLAY ? r->nmoves : r->nvalues;
    int honest = (int)arb_rng_below(&h->rng, (uint64_t)n);
    if (!h->done && ++h->decisions >= h->when) {
        int i = misbehave(h, v, r, honest);
        if (i != -1) {
            h->done = true;
            return i;
        }
    }
    return honest;
}

static int choose_dab(const abot_dab_view *v, const abot_dab_request *r, void *ctx)
{
    hostile *h = ctx;
    if (!h->seeded) {
        arb_rng_seed(&h->rng, v->seed);
        h->seeded = true;
    }
    int honest = r->nchoices > 0 ? (int)arb_rng_below(&h->rng, (uint64_t)r->nchoices) : 0;
    if (!h->done && ++h->decisions >= h->when) {
        int i = misbehave_dab(h, v, r, honest);
        if (i != -1) {
            h->done = true;
            return i;
        }
    }
    return honest;
}

/* Read the referee until it hangs up, answering nothing more. */
static void drain(void)
{
    char buf[4096];
    for (;;) {
        ssize_t n = read(0, buf, sizeof buf);
        if (n == 0 || (n < 0 && errno != EINTR))
            return;
    }
}

int main(int argc, char **argv)
{
    bool dabang = argc > 1 && strcmp(argv[1], "--dabang") == 0;
    if (dabang) {
        argv++;
        argc--;
    }
    hostile h = {.mode = argc > 1 ? argv[1] : "honest", .when = argc > 2 ? (int)arb_num_or(argv[2], 1) : 1,
                 .arg = argc > 3 ? argv[3] : NULL};
    static const char *const modes[] = {
        "sleep", "spin", "flood", "hugeline", "exit", "crash", "crashsay", "children", "forkbomb", "alloc", "bigfile",
        "network", "closeout", "garbage", "stray", "illegal", "othercards", "late", "stderr", "badhello",
        "silenthello", "exitnow", "honest",
    };
    bool known = false;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        known |= strcmp(h.mode, modes[i]) == 0;
    if (!known) {
        fprintf(stderr, "usage: hostile_bot [--dabang] MODE [N] [ARG]; unknown mode \"%s\"\n", h.mode);
        return 2;
    }
    if (h.when < 1)
        h.when = 1;
    if (strcmp(h.mode, "silenthello") == 0)
        forever();
    if (strcmp(h.mode, "exitnow") == 0)
        return 3;
    if (strcmp(h.mode, "badhello") == 0) {
        char buf[256];
        if (read(0, buf, sizeof buf) > 0)
            say("hello referee, I am a bot\n");
        drain();
        return 0;
    }
    if (dabang)
        return abot_dab_run("hostile", choose_dab, &h) == 0 ? 0 : 1;
    return abot_run("hostile", choose, &h) == 0 ? 0 : 1;
}
