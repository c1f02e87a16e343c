/* ddz_rules.c — Dou Dizhu rule sets: the presets, every option as a named
 * switch (table-driven, after redis's config.c), and the card notation. */
#include "ddz.h"
#include "arb_error.h"
#include "arb_names.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char ddz_rank_chars[DDZ_NRANKS + 1] = "3456789TJQKA2BR";

static const char *const kind_names[DDZ_NKINDS] = {
    "pass", "solo", "pair", "trio", "trio_solo", "trio_pair", "chain", "pair_chain",
    "airplane", "airplane_solo", "airplane_pair", "four_two_solo", "four_two_pair",
    "shuttle", "shuttle_solo", "shuttle_pair", "bomb", "rocket",
};

const char *ddz_kind_name(ddz_kind k)
{
    return (unsigned)k < DDZ_NKINDS ? kind_names[k] : "?";
}

int ddz_kind_parse(const char *name, ddz_kind *out)
{
    for (int k = 0; k < DDZ_NKINDS; k++)
        if (strcmp(name, kind_names[k]) == 0) {
            *out = (ddz_kind)k;
            return 0;
        }
    return ARB_ENOTFOUND;
}

/* ---- Presets (docs/rules/doudizhu.md, "Presets") ---------------------------- */

static void set_kind(ddz_rules *r, int kind, bool on, int min, int max)
{
    r->kind[kind] = (ddz_kind_rule){on, (uint8_t)min, (uint8_t)max};
}

/* The standard three-player game; each choice is argued in DDZ-20..79. */
static void preset_standard(ddz_rules *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->preset, sizeof r->preset, "standard");
    r->players = 3;
    r->packs = 1;
    r->hand_size = 17;
    r->kitty_size = 3;
    for (int k = DDZ_SOLO; k < DDZ_NKINDS; k++)
        set_kind(r, k, true, 1, 1);
    set_kind(r, DDZ_CHAIN, true, 5, 12);
    set_kind(r, DDZ_PAIR_CHAIN, true, 3, 10);
    set_kind(r, DDZ_AIRPLANE, true, 2, 6);
    set_kind(r, DDZ_AIRPLANE_SOLO, true, 2, 5);
    set_kind(r, DDZ_AIRPLANE_PAIR, true, 2, 4);
    set_kind(r, DDZ_SHUTTLE, false, 2, 5);
    set_kind(r, DDZ_SHUTTLE_SOLO, false, 2, 3);
    set_kind(r, DDZ_SHUTTLE_PAIR, false, 2, 2);
    r->kicker_same_rank = false;
    r->airplane_solo_repeat = true;
    r->four_solo_pair = true;
    r->pair_kickers_same = false;
    r->kicker_both_jokers = false;
    r->kicker_bomb = false;
    r->kicker_trio_adjacent = true;
    r->joker_pair = false;
    r->joker_pair_kicker = false;
    r->split_bomb = true;
    r->small_three_bomb = false;
    r->compare = DDZ_COMPARE_STANDARD;
    r->bidding = DDZ_BID_SCORE;
    r->first_bidder = DDZ_FIRST_RANDOM;
    r->bid_continue = false;
    r->max_bid = 3;
    r->rob_stake = DDZ_ROB_FROM1;
    r->fixed_landlord = 0;
    r->redeal_limit = 3;
    r->exhausted = DDZ_EXHAUST_FORCE;
    r->base_stake = 1;
    r->bomb_mult = 2;
    r->spring_mult = 2;
    r->show_mult = 0;
    r->doubling = false;
    r->four_jokers_claim = false;
    r->claim_mode = DDZ_CLAIM_WIN;
    r->wild = 0;
    r->wild_ranks = 0;
}

/* RLCard's move set (docs/rules/doudizhu.md, "Presets"): 27,471 plays over a full pack. */
static void preset_rlcard(ddz_rules *r)
{
    preset_standard(r);
    snprintf(r->preset, sizeof r->preset, "rlcard");
    r->kicker_trio_adjacent = false;
    r->bidding = DDZ_BID_FIXED;
}

/* DouZero's move set and its way of reading and comparing plays. */
static void preset_douzero(ddz_rules *r)
{
    preset_standard(r);
    snprintf(r->preset, sizeof r->preset, "douzero");
    r->kicker_both_jokers = true;
    r->kicker_bomb = true;
    r->kicker_trio_adjacent = true;
    r->compare = DDZ_COMPARE_DOUZERO;
    r->bidding = DDZ_BID_FIXED;
}

/* Four players, two packs (seeds 000, 003, 004; DDZ-90..99). */
static void preset_four(ddz_rules *r)
{
    preset_standard(r);
    snprintf(r->preset, sizeof r->preset, "four-player");
    r->players = 4;
    r->packs = 2;
    r->hand_size = 25;
    r->kitty_size = 8;
    set_kind(r, DDZ_TRIO_SOLO, false, 1, 1);
    set_kind(r, DDZ_AIRPLANE_SOLO, false, 2, 8);
    set_kind(r, DDZ_FOUR_TWO_SOLO, false, 1, 1);
    set_kind(r, DDZ_FOUR_TWO_PAIR, false, 1, 1);
    set_kind(r, DDZ_CHAIN, true, 5, 12);
    set_kind(r, DDZ_PAIR_CHAIN, true, 3, 12);
    set_kind(r, DDZ_AIRPLANE, true, 2, 11);
    set_kind(r, DDZ_AIRPLANE_PAIR, true, 2, 6);
    set_kind(r, DDZ_SHUTTLE, false, 2, 8);
    set_kind(r, DDZ_SHUTTLE_SOLO, false, 2, 4);
    set_kind(r, DDZ_SHUTTLE_PAIR, false, 2, 4);
    r->joker_pair = true;
    r->joker_pair_kicker = true;
}

static const struct {
    const char *name;
    void (*fill)(ddz_rules *);
} presets[] = {
    {"standard", preset_standard},
    {"rlcard", preset_rlcard},
    {"douzero", preset_douzero},
    {"four-player", preset_four},
};

static const char *const preset_names[] = {"standard", "rlcard", "douzero", "four-player", NULL};

const char *const *ddz_rules_presets(void) { return preset_names; }

int ddz_rules_preset(ddz_rules *r, const char *name)
{
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (strcmp(name, presets[i].name) == 0) {
            presets[i].fill(r);
            return 0;
        }
    return ARB_ENOTFOUND;
}

/* ---- Options ---------------------------------------------------------------- */

typedef enum opt_type { OPT_BOOL, OPT_U8, OPT_U32, OPT_ENUM, OPT_RANKS } opt_type;

typedef struct opt {
    const char *name;
    opt_type    type;
    size_t      offset;
    unsigned    min, max;
    const char *const *values;   /* OPT_ENUM: names of 0, 1, ... */
    const char *help;
} opt;

static const char *const bidding_names[] = {"score", "call-rob", "fixed", NULL};
static const char *const first_names[] = {"random", "faceup", "heart3", NULL};
static const char *const rob_names[] = {"from1", "from3", NULL};
static const char *const exhaust_names[] = {"force", "void", NULL};
static const char *const compare_names[] = {"standard", "douzero", NULL};
static const char *const claim_names[] = {"win", "separate", NULL};

#define O(field) offsetof(ddz_rules, field)
static const opt options[] = {
    {"players", OPT_U8, O(players), 3, 4, NULL, "seats at the table"},
    {"packs", OPT_U8, O(packs), 1, 2, NULL, "packs of 54 cards"},
    {"hand_size", OPT_U8, O(hand_size), 1, 33, NULL, "cards dealt to each seat"},
    {"kitty_size", OPT_U8, O(kitty_size), 0, 12, NULL, "cards left for the landlord"},
    {"kicker_same_rank", OPT_BOOL, O(kicker_same_rank), 0, 1, NULL, "a kicker may share a primary rank"},
    {"airplane_solo_repeat", OPT_BOOL, O(airplane_solo_repeat), 0, 1, NULL, "airplane solo kickers may repeat a rank"},
    {"four_solo_pair", OPT_BOOL, O(four_solo_pair), 0, 1, NULL, "four+two solos may be a pair (JJJJ77)"},
    {"pair_kickers_same", OPT_BOOL, O(pair_kickers_same), 0, 1, NULL, "pair kickers may share a rank"},
    {"kicker_both_jokers", OPT_BOOL, O(kicker_both_jokers), 0, 1, NULL, "both jokers among kickers (one pack)"},
    {"kicker_bomb", OPT_BOOL, O(kicker_bomb), 0, 1, NULL, "a bomb among kickers"},
    {"kicker_trio_adjacent", OPT_BOOL, O(kicker_trio_adjacent), 0, 1, NULL, "solo kickers forming a trio next to the airplane"},
    {"joker_pair", OPT_BOOL, O(joker_pair), 0, 1, NULL, "two packs: any two jokers are a pair"},
    {"joker_pair_kicker", OPT_BOOL, O(joker_pair_kicker), 0, 1, NULL, "two packs: a joker pair may be a kicker"},
    {"split_bomb", OPT_BOOL, O(split_bomb), 0, 1, NULL, "a play may use part of a held bomb"},
    {"small_three_bomb", OPT_BOOL, O(small_three_bomb), 0, 1, NULL, "222 + joker is the lowest bomb"},
    {"compare", OPT_ENUM, O(compare), 0, 1, compare_names, "how plays are read and compared"},
    {"bidding", OPT_ENUM, O(bidding), 0, 2, bidding_names, "landlord selection"},
    {"first_bidder", OPT_ENUM, O(first_bidder), 0, 2, first_names, "who speaks first in the auction"},
    {"bid_continue", OPT_BOOL, O(bid_continue), 0, 1, NULL, "score bidding continues until the others pass"},
    {"max_bid", OPT_U8, O(max_bid), 1, 9, NULL, "highest score bid"},
    {"rob_stake", OPT_ENUM, O(rob_stake), 0, 1, rob_names, "call-and-rob stake convention"},
    {"fixed_landlord", OPT_U8, O(fixed_landlord), 0, 3, NULL, "landlord seat when bidding=fixed"},
    {"redeal_limit", OPT_U8, O(redeal_limit), 0, 100, NULL, "redeals before `exhausted` applies"},
    {"exhausted", OPT_ENUM, O(exhausted), 0, 1, exhaust_names, "what happens when redeals run out"},
    {"base_stake", OPT_U32, O(base_stake), 1, 1000000, NULL, "points per unit of deal value"},
    {"bomb_mult", OPT_U8, O(bomb_mult), 1, 10, NULL, "multiplier per bomb or rocket"},
    {"spring_mult", OPT_U8, O(spring_mult), 1, 10, NULL, "spring / anti-spring multiplier"},
    {"show_mult", OPT_U8, O(show_mult), 0, 10, NULL, "show-hand multiplier, 0 = no showing"},
    {"doubling", OPT_BOOL, O(doubling), 0, 1, NULL, "each player may double before play"},
    {"four_jokers_claim", OPT_BOOL, O(four_jokers_claim), 0, 1, NULL, "landlord with four jokers may claim the deal"},
    {"claim_mode", OPT_ENUM, O(claim_mode), 0, 1, claim_names, "four jokers claimed: win the deal, or count the bomb and play on"},
    {"wild", OPT_U8, O(wild), 0, 2, NULL, "wild ranks: 0, 1 (after the landlord), 2 (one more before bidding)"},
    {"wild_ranks", OPT_RANKS, O(wild_ranks), 0, 0, NULL, "the wild ranks named for every deal (5, 5T), none = drawn"},
};
#undef O

#define NOPTS (sizeof options / sizeof options[0])

/* Every option name, for error suggestions and `arbiter rules`. Kept in
 * step with options[] by the unit test that sets each name. */
static const char *const all_names[] = {
    "players", "packs", "hand_size", "kitty_size", "kicker_same_rank", "airplane_solo_repeat",
    "four_solo_pair", "pair_kickers_same", "kicker_both_jokers", "kicker_bomb",
    "kicker_trio_adjacent", "joker_pair", "joker_pair_kicker", "split_bomb", "small_three_bomb",
    "compare", "bidding", "first_bidder", "bid_continue", "max_bid", "rob_stake",
    "fixed_landlord", "redeal_limit", "exhausted", "base_stake", "bomb_mult", "spring_mult",
    "show_mult", "doubling", "four_jokers_claim", "claim_mode", "wild", "wild_ranks",
    "solo", "pair", "trio", "trio_solo", "trio_pair", "chain", "chain.min", "chain.max",
    "pair_chain", "pair_chain.min", "pair_chain.max", "airplane", "airplane.min", "airplane.max",
    "airplane_solo", "airplane_solo.min", "airplane_solo.max", "airplane_pair",
    "airplane_pair.min", "airplane_pair.max", "four_two_solo", "four_two_pair",
    "shuttle", "shuttle.min", "shuttle.max", "shuttle_solo", "shuttle_solo.min",
    "shuttle_solo.max", "shuttle_pair", "shuttle_pair.min", "shuttle_pair.max",
    NULL,
};

const char *const *ddz_rules_options(void)
{
    return all_names;
}

static int parse_bool(const char *v, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(v, yes[i]) == 0) {
            *out = true;
            return 0;
        }
        if (strcasecmp(v, no[i]) == 0) {
            *out = false;
            return 0;
        }
    }
    return ARB_EINVAL;
}

static int parse_uint(const char *v, unsigned min, unsigned max, unsigned *out)
{
    char *end;
    if (!*v || *v == '-' || *v == '+')
        return ARB_EINVAL;
    unsigned long x = strtoul(v, &end, 10);
    if (*end)
        return ARB_EINVAL;
    if (x < min || x > max)
        return ARB_ERANGE;
    *out = (unsigned)x;
    return 0;
}

static void unknown_key(const char *key, char *err, size_t errlen)
{
    const char *best = arb_suggest(key, ddz_rules_options(), 4);
    if (best)
        snprintf(err, errlen, "unknown option \"%s\" (did you mean \"%s\"?)", key, best);
    else
        snprintf(err, errlen, "unknown option \"%s\"", key);
}

/* The kind one unit of a chain kind is on its own. */
static ddz_kind unit_kind(ddz_kind k)
{
    switch (k) {
    case DDZ_CHAIN: return DDZ_SOLO;
    case DDZ_PAIR_CHAIN: return DDZ_PAIR;
    case DDZ_AIRPLANE: return DDZ_TRIO;
    case DDZ_AIRPLANE_SOLO: return DDZ_TRIO_SOLO;
    case DDZ_AIRPLANE_PAIR: return DDZ_TRIO_PAIR;
    case DDZ_SHUTTLE: return DDZ_BOMB;
    case DDZ_SHUTTLE_SOLO: return DDZ_FOUR_TWO_SOLO;
    case DDZ_SHUTTLE_PAIR: return DDZ_FOUR_TWO_PAIR;
    default: return DDZ_PASS;
    }
}

/* Ranks 3..2 named by their letters ("5", "5T"), each once; "none" or ""
 * is no rank. Jokers are never wild (DDZ-81). */
static int parse_ranks_mask(const char *v, uint16_t *out)
{
    uint16_t m = 0;
    if (strcasecmp(v, "none") == 0) {
        *out = 0;
        return 0;
    }
    for (const char *p = v; *p; p++) {
        int x;
        if (p[0] == '1' && p[1] == '0') {
            x = DDZ_RT;
            p++;
        } else {
            char ch = *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
            const char *q = strchr(ddz_rank_chars, ch);
            x = q && ch ? (int)(q - ddz_rank_chars) : -1;
        }
        if (x < 0 || x > DDZ_R2 || (m >> x & 1))
            return ARB_EINVAL;
        m |= (uint16_t)(1u << x);
    }
    *out = m;
    return 0;
}

static void format_ranks_mask(uint16_t m, char *buf, size_t len)
{
    size_t n = 0;
    for (int x = 0; x <= DDZ_R2 && n + 1 < len; x++)
        if (m >> x & 1)
            buf[n++] = ddz_rank_chars[x];
    buf[n] = 0;
    if (n == 0)
        snprintf(buf, len, "none");
}

static int set_kind_option(ddz_rules *r, const char *key, const char *value, char *err, size_t errlen)
{
    char base[32];
    const char *dot = strchr(key, '.');
    size_t blen = dot ? (size_t)(dot - key) : strlen(key);
    if (blen >= sizeof base)
        return ARB_ENOTFOUND;
    memcpy(base, key, blen);
    base[blen] = 0;
    ddz_kind k;
    if (ddz_kind_parse(base, &k) || k == DDZ_PASS || k == DDZ_BOMB || k == DDZ_ROCKET)
        return ARB_ENOTFOUND;
    if (!dot) {
        bool b;
        if (parse_bool(value, &b)) {
            snprintf(err, errlen, "option \"%s\": expected true or false, got \"%s\"", key, value);
            return ARB_EINVAL;
        }
        r->kind[k].on = b;
        return 0;
    }
    bool is_min = strcmp(dot, ".min") == 0, is_max = strcmp(dot, ".max") == 0;
    bool chain = k == DDZ_CHAIN || k == DDZ_PAIR_CHAIN || k >= DDZ_AIRPLANE;
    if ((!is_min && !is_max) || !chain || k == DDZ_FOUR_TWO_SOLO || k == DDZ_FOUR_TWO_PAIR)
        return ARB_ENOTFOUND;
    /* One unit of a chain kind is another kind (a chain of one card is a
     * solo, one four of a shuttle a bomb): allowing it would give one set of
     * cards two readings of different kinds. */
    unsigned v;
    int rc = parse_uint(value, DDZ_MIN_CHAIN_UNITS, 12, &v);
    if (rc) {
        snprintf(err, errlen, "option \"%s\": expected a length %d..12 (one unit is a %s), got \"%s\"",
                 key, DDZ_MIN_CHAIN_UNITS, kind_names[unit_kind(k)], value);
        return rc;
    }
    if (is_min)
        r->kind[k].min_len = (uint8_t)v;
    else
        r->kind[k].max_len = (uint8_t)v;
    return 0;
}

int ddz_rules_set(ddz_rules *r, const char *key, const char *value, char *err, size_t errlen)
{
    if (strcmp(key, "preset") == 0) {
        if (ddz_rules_preset(r, value)) {
            snprintf(err, errlen, "unknown preset \"%s\" (standard, rlcard, douzero, four-player)", value);
            return ARB_ENOTFOUND;
        }
        return 0;
    }
    for (size_t i = 0; i < NOPTS; i++) {
        const opt *o = &options[i];
        if (strcmp(o->name, key) != 0)
            continue;
        char *field = (char *)r + o->offset;
        unsigned v = 0;
        bool b;
        int rc = 0;
        switch (o->type) {
        case OPT_BOOL:
            rc = parse_bool(value, &b);
            if (rc) {
                snprintf(err, errlen, "option \"%s\": expected true or false, got \"%s\"", key, value);
                return rc;
            }
            *(bool *)field = b;
            return 0;
        case OPT_ENUM:
            for (unsigned j = 0; o->values[j]; j++)
                if (strcmp(o->values[j], value) == 0) {
                    *(uint8_t *)field = (uint8_t)j;
                    return 0;
                }
            {
                char list[128] = "";
                for (unsigned j = 0; o->values[j]; j++) {
                    strncat(list, j ? ", " : "", sizeof list - strlen(list) - 1);
                    strncat(list, o->values[j], sizeof list - strlen(list) - 1);
                }
                snprintf(err, errlen, "option \"%s\": expected one of %s, got \"%s\"", key, list, value);
            }
            return ARB_EINVAL;
        case OPT_RANKS:
            if (parse_ranks_mask(value, (uint16_t *)(void *)field)) {
                snprintf(err, errlen, "option \"%s\": expected ranks of 3456789TJQKA2, each once "
                         "(5, 5T), or none, got \"%s\"", key, value);
                return ARB_EINVAL;
            }
            return 0;
        case OPT_U8:
        case OPT_U32:
            rc = parse_uint(value, o->min, o->max, &v);
            if (rc) {
                snprintf(err, errlen, "option \"%s\": expected an integer %u..%u, got \"%s\"",
                         key, o->min, o->max, value);
                return rc;
            }
            if (o->type == OPT_U8)
                *(uint8_t *)field = (uint8_t)v;
            else
                *(uint32_t *)field = v;
            return 0;
        }
    }
    int rc = set_kind_option(r, key, value, err, errlen);
    if (rc == ARB_ENOTFOUND)
        unknown_key(key, err, errlen);
    return rc;
}

int ddz_rules_set_list(ddz_rules *r, const char *list, char *err, size_t errlen)
{
    char item[128];
    const char *p = list;
    while (*p) {
        while (*p == ',' || *p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        size_t n = strcspn(p, ", \t");
        if (n >= sizeof item) {
            snprintf(err, errlen, "option too long: \"%.20s...\"", p);
            return ARB_ETOOBIG;
        }
        memcpy(item, p, n);
        item[n] = 0;
        p += n;
        char *eq = strchr(item, '=');
        if (!eq) {
            snprintf(err, errlen, "expected key=value, got \"%s\"", item);
            return ARB_EINVAL;
        }
        *eq = 0;
        int rc = ddz_rules_set(r, item, eq + 1, err, errlen);
        if (rc)
            return rc;
    }
    return ddz_rules_check(r, err, errlen);
}

int ddz_rules_check(const ddz_rules *r, char *err, size_t errlen)
{
    if (!((r->players == 3 && r->packs == 1) || (r->players == 4 && r->packs == 2)
          || (r->players == 3 && r->packs == 2))) {
        snprintf(err, errlen, "players=%u with packs=%u is not a supported table", r->players, r->packs);
        return ARB_EINVAL;
    }
    unsigned total = 54u * r->packs;
    if ((unsigned)r->hand_size * r->players + r->kitty_size != total) {
        snprintf(err, errlen, "hand_size %u x %u players + kitty_size %u must equal the %u cards",
                 r->hand_size, r->players, r->kitty_size, total);
        return ARB_EINVAL;
    }
    for (int k = DDZ_SOLO; k < DDZ_BOMB; k++) {
        const ddz_kind_rule *kr = &r->kind[k];
        if (kr->min_len > kr->max_len || kr->min_len == 0) {
            snprintf(err, errlen, "%s: length range %u..%u is empty", kind_names[k], kr->min_len, kr->max_len);
            return ARB_ERANGE;
        }
        if (unit_kind((ddz_kind)k) != DDZ_PASS && kr->min_len < DDZ_MIN_CHAIN_UNITS) {
            snprintf(err, errlen, "%s.min=%u: the smallest allowed is %d (one unit is a %s)", kind_names[k],
                     kr->min_len, DDZ_MIN_CHAIN_UNITS, kind_names[unit_kind((ddz_kind)k)]);
            return ARB_ERANGE;
        }
    }
    if (r->wild_ranks && (r->wild_ranks >> (DDZ_R2 + 1) || __builtin_popcount(r->wild_ranks) != r->wild)) {
        char names[16];
        format_ranks_mask(r->wild_ranks, names, sizeof names);
        int n = __builtin_popcount(r->wild_ranks);
        if (n > 2)
            snprintf(err, errlen, "wild_ranks=%s names %d ranks; at most 2 are wild", names, n);
        else
            snprintf(err, errlen, "wild_ranks=%s names %d rank%s but wild=%u: set wild=%d too", names, n,
                     n == 1 ? "" : "s", r->wild, n);
        return ARB_EINVAL;
    }
    if (r->wild && (r->packs != 1 || r->compare != DDZ_COMPARE_STANDARD)) {
        snprintf(err, errlen, "wild cards are defined for one pack and compare=standard");
        return ARB_EINVAL;
    }
    if (r->bidding == DDZ_BID_FIXED && r->fixed_landlord >= r->players) {
        snprintf(err, errlen, "fixed_landlord %u is not a seat (0..%u)", r->fixed_landlord, r->players - 1u);
        return ARB_ERANGE;
    }
    return 0;
}

size_t ddz_rules_describe(const ddz_rules *r, char *buf, size_t len)
{
    size_t n = 0;
#define PUT(...) do { int w_ = snprintf(buf ? buf + (n < len ? n : len) : NULL, \
                       n < len ? len - n : 0, __VA_ARGS__); if (w_ > 0) n += (size_t)w_; } while (0)
    if (buf && len)
        buf[0] = 0;
    PUT("preset=%s\n", r->preset);
    for (size_t i = 0; i < NOPTS; i++) {
        const opt *o = &options[i];
        const char *field = (const char *)r + o->offset;
        switch (o->type) {
        case OPT_BOOL: PUT("%s=%s\n", o->name, *(const bool *)field ? "true" : "false"); break;
        case OPT_U8: PUT("%s=%u\n", o->name, *(const uint8_t *)field); break;
        case OPT_U32: PUT("%s=%u\n", o->name, *(const uint32_t *)field); break;
        case OPT_ENUM: PUT("%s=%s\n", o->name, o->values[*(const uint8_t *)field]); break;
        case OPT_RANKS: {
            char names[16];
            format_ranks_mask(*(const uint16_t *)(const void *)field, names, sizeof names);
            PUT("%s=%s\n", o->name, names);
            break;
        }
        }
    }
    for (int k = DDZ_SOLO; k < DDZ_BOMB; k++) {
        const ddz_kind_rule *kr = &r->kind[k];
        bool chain = k == DDZ_CHAIN || k == DDZ_PAIR_CHAIN || k == DDZ_AIRPLANE
            || k == DDZ_AIRPLANE_SOLO || k == DDZ_AIRPLANE_PAIR || k >= DDZ_SHUTTLE;
        PUT("%s=%s\n", kind_names[k], kr->on ? "true" : "false");
        if (chain)
            PUT("%s.min=%u\n%s.max=%u\n", kind_names[k], kr->min_len, kind_names[k], kr->max_len);
    }
#undef PUT
    return n;
}

/* ---- Notation ----------------------------------------------------------------- */

static int rank_of_char(char ch)
{
    if (ch >= 'a' && ch <= 'z')
        ch = (char)(ch - 'a' + 'A');
    const char *p = strchr(ddz_rank_chars, ch);
    return (p && ch) ? (int)(p - ddz_rank_chars) : -1;
}

/* Parse ranks from text[0..len). */
static int parse_ranks(const ddz_rules *r, const char *text, size_t len, ddz_cards *out)
{
    ddz_cards c = 0;
    unsigned cnt[DDZ_NRANKS] = {0};
    for (size_t i = 0; i < len; i++) {
        int x;
        if (text[i] == '1' && i + 1 < len && text[i + 1] == '0') {
            x = DDZ_RT;
            i++;
        } else {
            x = rank_of_char(text[i]);
        }
        if (x < 0)
            return ARB_EPARSE;
        unsigned limit = x >= DDZ_RB ? r->packs : 4u * r->packs;
        if (++cnt[x] > limit)
            return ARB_ERANGE;
        c += DDZ_ONE(x);
    }
    *out = c;
    return 0;
}

int ddz_cards_parse(const ddz_rules *r, const char *text, ddz_cards *out)
{
    size_t len = strlen(text);
    if (len == 0)
        return ARB_EPARSE;
    if (len > 2 * DDZ_MAX_CARDS)
        return ARB_ETOOBIG;
    return parse_ranks(r, text, len, out);
}

int ddz_play_parse(const ddz_rules *r, const char *text, ddz_cards *cards, ddz_cards *primary)
{
    if (strcasecmp(text, "pass") == 0) {
        *cards = 0;
        *primary = 0;
        return 0;
    }
    size_t len = strlen(text);
    if (len == 0)
        return ARB_EPARSE;
    if (len > 2 * DDZ_MAX_CARDS)
        return ARB_ETOOBIG;
    const char *plus = strchr(text, '+');
    if (!plus) {
        int rc = parse_ranks(r, text, len, cards);
        if (rc == 0)
            *primary = *cards;
        return rc;
    }
    if (strchr(plus + 1, '+') || plus == text || plus[1] == 0)
        return ARB_EPARSE;
    ddz_cards p, k;
    int rc = parse_ranks(r, text, (size_t)(plus - text), &p);
    if (rc)
        return rc;
    rc = parse_ranks(r, plus + 1, strlen(plus + 1), &k);
    if (rc)
        return rc;
    for (int x = 0; x < DDZ_NRANKS; x++) {
        unsigned limit = x >= DDZ_RB ? r->packs : 4u * r->packs;
        if (ddz_count(p, x) + ddz_count(k, x) > limit)
            return ARB_ERANGE;
    }
    *cards = p + k;
    *primary = p;
    return 0;
}

int ddz_cards_format(ddz_cards c, char *buf, size_t len)
{
    size_t n = 0;
    for (int x = 0; x < DDZ_NRANKS; x++)
        for (unsigned k = ddz_count(c, x); k > 0; k--) {
            if (n + 1 < len)
                buf[n] = ddz_rank_chars[x];
            n++;
        }
    if (len)
        buf[n < len ? n : len - 1] = 0;
    return (int)n;
}

int ddz_move_format(const ddz_move *m, char *buf, size_t len)
{
    if (m->kind == DDZ_PASS || m->cards == 0)
        return snprintf(buf, len, "pass");
    return ddz_cards_format(m->cards, buf, len);
}

int ddz_move_format_reading(const ddz_move *m, char *buf, size_t len)
{
    if (m->kind == DDZ_PASS || m->cards == 0)
        return snprintf(buf, len, "pass");
    ddz_cards p = ddz_move_primary(m);
    if (p == m->cards || p == 0)
        return ddz_cards_format(m->cards, buf, len);
    char a[2 * DDZ_MAX_CARDS + 1], b[2 * DDZ_MAX_CARDS + 1];
    ddz_cards_format(p, a, sizeof a);
    ddz_cards_format(m->cards - p, b, sizeof b);
    return snprintf(buf, len, "%s+%s", a, b);
}
