/* hostile_bot.c — a bot that misbehaves on purpose, for the referee's
 * hostile-bot suite. It plays honestly (the first legal choice) except on
 * its Nth decision (counted from 1 over the match), where it does what MODE
 * says:
 *
 *   hostile_bot MODE [N] [ARG]
 *
 *   sleep spin flood hugeline exit crash children forkbomb alloc bigfile
 *   network closeout garbage illegal othercards late stderr
 *   badhello silenthello exitnow (misbehave at the handshake)   honest
 *
 * `late` sleeps ARG ms (default 1500) before answering; `network` tries
 * 127.0.0.1:ARG (default 9) and 1.1.1.1:53 and reports on stderr. */
#include "arbiter_bot.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const char *mode = "honest";
static int when = 1;
static const char *arg;
static int decisions;

static void raw(const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t w = write(1, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static void forever(void)
{
    for (;;)
        pause();
}

static void try_connect(const char *ip, int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0) {
        fprintf(stderr, "network: no socket: %s\n", strerror(errno));
        return;
    }
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, ip, &a.sin_addr);
    int rc = connect(fd, (struct sockaddr *)&a, sizeof a);
    if (rc != 0 && errno == EINPROGRESS) {
        struct pollfd p = {fd, POLLOUT, 0};
        int err = ETIMEDOUT;
        socklen_t len = sizeof err;
        if (poll(&p, 1, 1000) == 1)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
        rc = err ? -1 : 0;
        errno = err;
    }
    fprintf(stderr, "network: %s:%d %s%s\n", ip, port, rc == 0 ? "connected" : "refused: ",
            rc == 0 ? "" : strerror(errno));
    close(fd);
}

/* A rank this bot does not hold: playing it is playing cards it has not got. */
static int absent_rank(ddz_cards hand)
{
    for (int x = 0; x < DDZ_NRANKS; x++)
        if (ddz_count(hand, x) == 0)
            return x;
    return 0;
}

static int misbehave(const abot_view *v, const abot_request *r)
{
    char line[64];
    if (strcmp(mode, "sleep") == 0) forever();
    if (strcmp(mode, "spin") == 0) for (volatile unsigned long i = 0;; i++) ;
    if (strcmp(mode, "flood") == 0) for (;;) raw("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    if (strcmp(mode, "hugeline") == 0) {
        static char big[1 << 20];
        memset(big, 'x', sizeof big - 2);
        big[sizeof big - 2] = '\n';
        raw(big);
        return ABOT_NO_REPLY;        /* the huge line was the reply */
    }
    if (strcmp(mode, "exit") == 0) exit(0);
    if (strcmp(mode, "crash") == 0) {
        volatile int *p = NULL;
        *p = 1;                      /* a real fault: also fatal as pid 1 of a sandbox */
    }
    if (strcmp(mode, "children") == 0) {
        for (int i = 0; i < 3; i++)
            if (fork() == 0) {
                if (i == 0)
                    setsid();
                forever();
            }
        return 0;
    }
    if (strcmp(mode, "forkbomb") == 0) for (;;) fork();
    if (strcmp(mode, "alloc") == 0) {
        for (;;) {
            char *p = malloc(16u << 20);
            if (!p)
                break;
            memset(p, 1, 16u << 20);
        }
        return 0;
    }
    if (strcmp(mode, "bigfile") == 0) {
        signal(SIGXFSZ, SIG_IGN);    /* past RLIMIT_FSIZE: EFBIG instead of death */
        static char block[1 << 16];
        int fd = open("big.bin", O_WRONLY | O_CREAT | O_TRUNC, 0600);
        while (fd >= 0 && write(fd, block, sizeof block) == (ssize_t)sizeof block)
            ;
        if (fd >= 0)
            close(fd);
        return 0;
    }
    if (strcmp(mode, "network") == 0) {
        try_connect("127.0.0.1", arg ? atoi(arg) : 9);
        try_connect("1.1.1.1", 53);
        return 0;
    }
    if (strcmp(mode, "closeout") == 0) {
        close(1);
        forever();
    }
    if (strcmp(mode, "garbage") == 0) {
        raw("hello there\n");
        return ABOT_NO_REPLY;
    }
    if (strcmp(mode, "illegal") == 0 || strcmp(mode, "othercards") == 0) {
        if (r->decision == ABOT_BID)
            snprintf(line, sizeof line, "bid 9\n");
        else if (r->decision == ABOT_PLAY)
            snprintf(line, sizeof line, "play %c\n", ddz_rank_chars[absent_rank(v->hand)]);
        else
            return -1;               /* not a decision to cheat at: wait for one */
        raw(line);
        return ABOT_NO_REPLY;
    }
    if (strcmp(mode, "late") == 0) {
        usleep((useconds_t)(arg ? atoi(arg) : 1500) * 1000u);
        return 0;
    }
    if (strcmp(mode, "stderr") == 0) {
        static char noise[1 << 20];
        memset(noise, 'e', sizeof noise);
        for (size_t off = 0; off < sizeof noise;) {
            ssize_t w = write(2, noise + off, sizeof noise - off);
            if (w <= 0)
                break;
            off += (size_t)w;
        }
        return 0;
    }
    return 0;
}

static int choose(const abot_view *v, const abot_request *r, void *ctx)
{
    (void)ctx;
    static bool done;
    if (!done && ++decisions >= when) {
        int i = misbehave(v, r);
        if (i != -1) {
            done = true;
            return i;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1) mode = argv[1];
    if (argc > 2) when = atoi(argv[2]);
    if (argc > 3) arg = argv[3];
    if (strcmp(mode, "silenthello") == 0)
        forever();
    if (strcmp(mode, "exitnow") == 0)
        return 3;
    if (strcmp(mode, "badhello") == 0) {
        char buf[256];
        if (read(0, buf, sizeof buf) > 0)
            raw("hello referee, I am a bot\n");
        forever();
    }
    return abot_run("hostile", choose, NULL);
}
