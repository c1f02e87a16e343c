/* deal_memory_bot.c — a hostile bot for duplicate play: it remembers every
 * hand it learns (its own hand as dealt, and every seat's plays of a deal)
 * in memory, in a file in its working directory, in /tmp, and looks for
 * the files of its earlier processes in sibling directories; when a new
 * hand is dealt to it, it reports on stderr (kept in the transcript) and in
 * ./verdict whether it has met those cards before:
 *   "deal-memory: deal N: seen before (memory|workdir|tmp|sibling)"
 *   "deal-memory: deal N: new"
 * It plays the first legal item. */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MEM 4096
#define MIN_PLAYED 12   /* cards a seat must have played for its plays to identify a hand */
#define TMP_FILE "/tmp/deal-memory-bot"

typedef struct entry {
    char cards[64];      /* ranks, sorted */
    bool full;           /* a whole hand (else: cards a seat played) */
    const char *source;
} entry;

static entry mem[MAX_MEM];
static int nmem;
static char played[8][64];
static char line[1 << 22];

static int cmpc(const void *a, const void *b) { return *(const char *)a - *(const char *)b; }

/* The rank characters of a card text, sorted (readings and separators dropped). */
static void ranks(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    for (; *in && *in != ' ' && n + 1 < cap; in++) {
        if (*in == '+' || *in == '=')
            break;   /* what follows is the reading: the cards are before it */
        if (strchr("3456789TJQKA2BR", *in))
            out[n++] = *in;
    }
    out[n] = 0;
    qsort(out, n, 1, cmpc);
}

static void remember(const char *cards, bool full, const char *source)
{
    if (nmem < MAX_MEM && strlen(cards) < sizeof mem[0].cards) {
        snprintf(mem[nmem].cards, sizeof mem[nmem].cards, "%s", cards);
        mem[nmem].full = full;
        mem[nmem].source = source;
        nmem++;
    }
}

static void load(const char *path, const char *source)
{
    FILE *f = fopen(path, "r");
    char buf[128];
    while (f && fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\n")] = 0;
        if (strlen(buf) > 2)
            remember(buf + 2, buf[0] == 'H', source);
    }
    if (f)
        fclose(f);
}

static void store(const char *cards, bool full)
{
    const char *paths[] = {"memory", TMP_FILE};
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(paths[i], "a");
        if (f) {
            fprintf(f, "%c %s\n", full ? 'H' : 'P', cards);
            fclose(f);
        }
    }
    remember(cards, full, "memory");
}

/* sub: a sub-multiset of whole (both sorted)? */
static bool contained(const char *sub, const char *whole)
{
    for (; *sub; sub++) {
        const char *p = strchr(whole, *sub);
        if (!p)
            return false;
        whole = p + 1;
    }
    return true;
}

static const char *seen(const char *hand)
{
    for (int i = 0; i < nmem; i++) {
        if (mem[i].full ? strcmp(mem[i].cards, hand) == 0
                        : strlen(mem[i].cards) >= MIN_PLAYED && contained(mem[i].cards, hand))
            return mem[i].source;
    }
    return NULL;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    load("memory", "workdir");
    load(TMP_FILE, "tmp");
    DIR *d = opendir("..");
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[600];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "../%s/memory", e->d_name);
        load(path, "sibling");
    }
    if (d)
        closedir(d);
    FILE *verdict = fopen("verdict", "a");
    long deal = -1;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        int seat;
        char cards[64];
        if (strncmp(line, "arbiter ", 8) == 0) {
            printf("bot 1 memory legal\n");
        } else if (sscanf(line, "deal %ld seat %d", &deal, &seat) == 2) {
            memset(played, 0, sizeof played);
        } else if (strncmp(line, "hand ", 5) == 0) {
            ranks(line + 5, cards, sizeof cards);
            const char *src = seen(cards);
            char v[128];
            snprintf(v, sizeof v, "deal-memory: deal %ld: %s%s%s\n", deal, src ? "seen before (" : "new",
                     src ? src : "", src ? ")" : "");
            fputs(v, stderr);
            if (verdict) {
                fputs(v, verdict);
                fflush(verdict);
            }
            store(cards, true);
        } else if (sscanf(line, "play %d %63s", &seat, cards) == 2 && seat >= 0 && seat < 8) {
            char r[64];
            ranks(cards, r, sizeof r);
            size_t n = strlen(played[seat]);
            snprintf(played[seat] + n, sizeof played[seat] - n, "%s", r);
        } else if (strncmp(line, "result", 6) == 0) {
            for (int s = 0; s < 8; s++)
                if (played[s][0]) {
                    qsort(played[s], strlen(played[s]), 1, cmpc);
                    store(played[s], false);
                }
        } else if (strncmp(line, "ask ", 4) == 0) {
            /* the first play, the last (highest) auction choice: no redeals */
            char *l = strstr(line, " legal ");
            char item[256] = "pass";
            if (l && strncmp(line, "ask play", 8) == 0) {
                sscanf(l + 7, "%255s", item);
            } else if (l) {
                char *last = strrchr(line, ' ');
                snprintf(item, sizeof item, "%.255s", last + 1);
            }
            printf("%s\n", item);
        } else if (strncmp(line, "end", 3) == 0) {
            break;
        }
    }
    return 0;
}
