/* deal_invert_bot.c — a hostile bot that tries to deal every deal itself:
 * it inverts the SplitMix64 step that made the seed in its `match` line
 * (arb_seed_child of the match seed, the derivation before keyed seeds),
 * recovers the match seed, deals each deal with the rules engine and
 * compares the hand it predicts with the hand it is dealt. Verdicts go to
 * stderr (kept in the transcript) as "deal-invert: deal N: predicted" or
 * "deal-invert: deal N: not predicted". It plays the first legal item. */
#include "arb_limits.h"
#include "ddz.h"
#include "arb_rng.h"
#include "game.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define C_GOLDEN 0x9e3779b97f4a7c15ULL
#define C_MIX1 0xbf58476d1ce4e5b9ULL
#define C_MIX2 0x94d049bb133111ebULL

/* The inverse of an odd number modulo 2^64 (Newton's iteration). */
static uint64_t inverse(uint64_t a)
{
    uint64_t x = a;
    for (int i = 0; i < 6; i++)
        x *= 2 - a * x;
    return x;
}

static uint64_t unxorshift(uint64_t z, int k)
{
    uint64_t x = z;
    for (int i = 0; i < 64 / k + 1; i++)
        x = z ^ (x >> k);
    return x;
}

/* x such that SplitMix64 from state x - golden gives out. */
static uint64_t unsplitmix(uint64_t out)
{
    uint64_t z = unxorshift(out, 31);
    z *= inverse(C_MIX2);
    z = unxorshift(z, 27);
    z *= inverse(C_MIX1);
    z = unxorshift(z, 30);
    return z - C_GOLDEN;
}

static uint64_t fnv(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++) {
        h ^= (uint8_t)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

typedef struct capture {
    char hand[256];
} capture;

static void grab(void *ctx, const char *line)
{
    capture *c = ctx;
    if (strncmp(line, "hand ", 5) == 0 && !c->hand[0])
        snprintf(c->hand, sizeof c->hand, "%s", line);
}

static char line[ARB_MAX_REQUEST + 2];

int main(void)
{
    const arb_game *g = &arb_game_doudizhu;
    void *rules = calloc(1, g->rules_size), *state = calloc(1, g->state_size);
    char preset[64] = "standard", opts[64][128];
    int nopts = 0, seat = -1;
    long deal = -1;
    uint64_t seed = 0;
    bool waiting_hand = false, rules_ok = false;
    FILE *verdict = fopen("verdict", "a");
    if (!rules || !state)
        return 1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (strncmp(line, "arbiter ", 8) == 0) {
            printf("bot 1 inverter legal\n");
        } else if (strncmp(line, "match ", 6) == 0) {
            char *p = strstr(line, " rules "), *q = strstr(line, " seed ");
            if (p)
                sscanf(p + 7, "%63s", preset);
            if (q)
                seed = strtoull(q + 6, NULL, 10);
        } else if (strncmp(line, "option ", 7) == 0 && nopts < 64) {
            snprintf(opts[nopts++], sizeof opts[0], "%.127s", line + 7);
        } else if (strcmp(line, "ready") == 0) {
            char err[256];
            rules_ok = g->rules_preset(rules, preset) == 0;
            for (int i = 0; i < nopts && rules_ok; i++) {
                char *eq = strchr(opts[i], '=');
                if (!eq)
                    continue;
                *eq = 0;
                rules_ok = g->rules_set(rules, opts[i], eq + 1, err, sizeof err) == 0;
            }
        } else if (sscanf(line, "deal %ld seat %d", &deal, &seat) == 2) {
            waiting_hand = true;
        } else if (strncmp(line, "hand ", 5) == 0 && waiting_hand) {
            waiting_hand = false;
            /* Try every bot index the seed could have been made for. */
            bool hit = false;
            for (int b = 0; b < ARB_MAX_SEATS && rules_ok && !hit; b++) {
                char label[32];
                snprintf(label, sizeof label, "bot/%d", b);
                uint64_t match_seed = unsplitmix(seed) ^ fnv(label);
                if (g->deal(state, rules, arb_seed_childn(match_seed, "deal", (uint64_t)deal)) != 0)
                    continue;
                capture c = {""};
                g->start_events(state, seat, grab, &c);
                hit = strcmp(c.hand, line) == 0;
            }
            fprintf(stderr, "deal-invert: deal %ld: %s\n", deal, hit ? "predicted" : "not predicted");
            if (verdict) {
                fprintf(verdict, "deal-invert: deal %ld: %s\n", deal, hit ? "predicted" : "not predicted");
                fflush(verdict);
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
