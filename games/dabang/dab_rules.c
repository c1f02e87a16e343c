/* dab_rules.c — Da Bang's presets and options (docs/rules/dabang.md,
 * "Options"): the standard preset is the seed's table; each switch is a
 * point where tables commonly differ. */
#include "dabang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arb_error.h"
#include "arb_limits.h"

static const char *const preset_names[] = {"standard", "short", NULL};

const char *const *dab_presets(void) { return preset_names; }

int dab_rules_preset(dab_rules *r, const char *preset)
{
    if (strcmp(preset, "standard") != 0 && strcmp(preset, "short") != 0)
        return ARB_ENOTFOUND;
    *r = (dab_rules){
        .kitty_multiplier = 2,     /* DB-31 */
        .tribute = true,           /* DB-50 */
        .dry_pot = true,           /* DB-56 */
        .special_endings = true,   /* DB-63 */
        .three_jokers_end = true,  /* DB-64 */
        .next_same = false,        /* DB-60 */
        .start_level = DAB_R3,      /* DB-70 */
        .goal_level = DAB_RT,       /* DB-62 */
        .base_step = 1,            /* DB-61 */
        .deal_limit = 9,           /* DB-71 */
    };
    if (strcmp(preset, "short") == 0) {
        /* Quick matches (tests, smoke runs): two levels from the goal. */
        r->start_level = DAB_RT - 1;
        r->deal_limit = 4;
    }
    return 0;
}

static const char level_chars[] = "3456789T";

static int parse_level(const char *v)
{
    if (strcmp(v, "10") == 0)
        return DAB_RT;
    return dab_level_parse(v);
}

static int parse_flag(const char *v, bool *out)
{
    if (!strcasecmp(v, "true") || !strcmp(v, "1") || !strcasecmp(v, "on") || !strcasecmp(v, "yes"))
        *out = true;
    else if (!strcasecmp(v, "false") || !strcmp(v, "0") || !strcasecmp(v, "off") || !strcasecmp(v, "no"))
        *out = false;
    else
        return ARB_EINVAL;
    return 0;
}

static int parse_small(const char *v, long lo, long hi, long *out)
{
    char *end;
    if (!*v || *v == '-' || *v == '+')
        return ARB_EINVAL;
    long n = strtol(v, &end, 10);
    if (*end || n < lo || n > hi)
        return ARB_ERANGE;
    *out = n;
    return 0;
}

typedef enum { O_FLAG, O_LEVEL, O_NUM } opt_type;
typedef struct opt {
    const char *name;
    opt_type type;
    size_t offset;
    long lo, hi;
    const char *help;
} opt;

#define OFF(f) offsetof(dab_rules, f)
static const opt options[] = {
    {"kitty_multiplier", O_NUM, OFF(kitty_multiplier), 2, 4, "the kitty's points when the attackers win the last trick (DB-31): 2 or 4"},
    {"tribute", O_FLAG, OFF(tribute), 0, 0, "blood and tribute between deals (DB-50..DB-53)"},
    {"dry_pot", O_FLAG, OFF(dry_pot), 0, 0, "the dry pot (DB-56)"},
    {"special_endings", O_FLAG, OFF(special_endings), 0, 0, "attackers at 0 or 400 end the match (DB-63)"},
    {"three_jokers_end", O_FLAG, OFF(three_jokers_end), 0, 0, "three identical jokers buried end the match (DB-64)"},
    {"next_same", O_FLAG, OFF(next_same), 0, 0, "the 打家 keeps the stage (false: his partner takes it, DB-60)"},
    {"start_level", O_LEVEL, OFF(start_level), 0, 0, "both teams' first level, 3..T (DB-70)"},
    {"goal_level", O_LEVEL, OFF(goal_level), 0, 0, "the level to play through, 3..T (DB-62)"},
    {"base_step", O_NUM, OFF(base_step), 1, 3, "levels a winning side goes up before jokers (DB-61)"},
    {"deal_limit", O_NUM, OFF(deal_limit), 1, ARB_MAX_DEALS, "deals when the match names none (DB-71)"},
};
#define NOPTS (sizeof options / sizeof options[0])

int dab_rules_set(dab_rules *r, const char *key, const char *value, char *err, size_t errlen)
{
    if (strcmp(key, "preset") == 0) {
        if (dab_rules_preset(r, value)) {
            snprintf(err, errlen, "unknown preset \"%s\" (standard, short)", value);
            return ARB_ENOTFOUND;
        }
        return 0;
    }
    for (size_t i = 0; i < NOPTS; i++) {
        const opt *o = &options[i];
        if (strcmp(o->name, key) != 0)
            continue;
        char *field = (char *)r + o->offset;
        if (o->type == O_FLAG) {
            if (parse_flag(value, (bool *)field)) {
                snprintf(err, errlen, "option \"%s\": expected true or false, got \"%s\"", key, value);
                return ARB_EINVAL;
            }
        } else if (o->type == O_LEVEL) {
            int l = parse_level(value);
            if (l < 0) {
                snprintf(err, errlen, "option \"%s\": expected a level 3456789T, got \"%s\"", key, value);
                return ARB_EINVAL;
            }
            *(uint8_t *)field = (uint8_t)l;
        } else {
            long n;
            if (parse_small(value, o->lo, o->hi, &n)) {
                snprintf(err, errlen, "option \"%s\": expected an integer %ld..%ld, got \"%s\"", key, o->lo, o->hi,
                         value);
                return ARB_ERANGE;
            }
            if (o->offset == OFF(deal_limit))
                *(uint32_t *)field = (uint32_t)n;
            else
                *(uint8_t *)field = (uint8_t)n;
        }
        return 0;
    }
    char list[512] = "";
    for (size_t i = 0; i < NOPTS; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, options[i].name, sizeof list - strlen(list) - 1);
    }
    snprintf(err, errlen, "unknown option \"%s\" (Da Bang has %s)", key, list);
    return ARB_ENOTFOUND;
}

int dab_rules_check(const dab_rules *r, char *err, size_t errlen)
{
    if (r->kitty_multiplier != 2 && r->kitty_multiplier != 4) {
        snprintf(err, errlen, "kitty_multiplier: 2 or 4 (DB-31), not %u", r->kitty_multiplier);
        return ARB_EINVAL;
    }
    if (r->start_level > DAB_LEVEL_MAX || r->goal_level > DAB_LEVEL_MAX || r->start_level > r->goal_level) {
        snprintf(err, errlen, "start_level must not be above goal_level (both 3..T)");
        return ARB_EINVAL;
    }
    if (r->base_step < 1 || r->base_step > 3 || r->deal_limit < 1 || r->deal_limit > ARB_MAX_DEALS) {
        snprintf(err, errlen, "base_step 1..3 and deal_limit 1..%d", ARB_MAX_DEALS);
        return ARB_EINVAL;
    }
    return 0;
}

size_t dab_rules_describe(const dab_rules *r, char *buf, size_t len)
{
    int n = snprintf(buf, len,
                     "kitty_multiplier=%u\ntribute=%s\ndry_pot=%s\nspecial_endings=%s\nthree_jokers_end=%s\n"
                     "next_same=%s\nstart_level=%c\ngoal_level=%c\nbase_step=%u\ndeal_limit=%u\n",
                     r->kitty_multiplier, r->tribute ? "true" : "false", r->dry_pot ? "true" : "false",
                     r->special_endings ? "true" : "false", r->three_jokers_end ? "true" : "false",
                     r->next_same ? "true" : "false", level_chars[r->start_level % 8],
                     level_chars[r->goal_level % 8], r->base_step, r->deal_limit);
    return n < 0 ? 0 : (size_t)n;
}
