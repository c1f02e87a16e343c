/* match_def.c — what a match is (match_def.h): names of policies and
 * reasons, defaults, building a game's rules from a preset and options,
 * seatings, the match key, and a bot's command line as an argv. */
#include "match_def.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_limits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const reason_names[MATCH_R_COUNT] = {
    "none", "timeout", "illegal", "malformed", "line-too-long", "closed-stdout",
    "exited", "crashed", "handshake",
};
static const char *const policy_names[] = {"autoplay", "forfeit-deal", "forfeit-match"};
static const char *const dup_names[MATCH_DUP_COUNT] = {"off", "rotate", "all", "swap"};

const char *match_reason_name(match_reason r) { return (unsigned)r < MATCH_R_COUNT ? reason_names[r] : "?"; }
const char *match_policy_name(match_policy p) { return (unsigned)p < 3 ? policy_names[p] : "?"; }
const char *match_duplicate_name(match_duplicate d) { return (unsigned)d < MATCH_DUP_COUNT ? dup_names[d] : "?"; }

static int parse_name(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

int match_policy_parse(const char *s, match_policy *out)
{
    int i = parse_name(s, policy_names, 3);
    if (i < 0)
        return ARB_ENOTFOUND;
    *out = (match_policy)i;
    return 0;
}

int match_duplicate_parse(const char *s, match_duplicate *out)
{
    int i = parse_name(s, dup_names, MATCH_DUP_COUNT);
    if (i < 0)
        return ARB_ENOTFOUND;
    *out = (match_duplicate)i;
    return 0;
}

void match_config_init(match_config *cfg, const arb_game *game)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->game = game;
    snprintf(cfg->preset, sizeof cfg->preset, "%s", game && game->default_preset ? game->default_preset : "");
    cfg->seed = 1;
    cfg->deals = 1;
    cfg->move_ms = 1000;
    cfg->deal_ms = -1;
    cfg->bank_ms = 30000;
    cfg->startup_ms = 5000;
    cfg->policy = MATCH_AUTOPLAY;
    cfg->strikes = 3;
    cfg->late_reply_notes = true;
    cfg->forfeit_points = game ? game->default_forfeit_points : 0;
}

static uint32_t factorial(int n);

/* With fixed teams, every game of the match must seat partners (bots in
 * one team at the first game) in one team's seats. Seatings repeat after
 * n! games at most, so that many are checked. */
static bool keeps_partners(const match_config *cfg, const int8_t team[ARB_MAX_SEATS])
{
    int n = cfg->nbots;
    uint32_t games = match_games(cfg), period = factorial(n) * (cfg->deals ? cfg->deals : 1);
    uint8_t first[ARB_MAX_SEATS], at[ARB_MAX_SEATS];
    int8_t team_of_bot[ARB_MAX_SEATS];
    uint32_t deal, seating;
    match_seating(cfg, 0, &deal, &seating, first);
    for (int s = 0; s < n; s++)
        team_of_bot[first[s]] = team[s];
    for (uint32_t g = 1; g < games && g < period; g++) {
        match_seating(cfg, g, &deal, &seating, at);
        for (int s = 0; s < n; s++)
            for (int o = 0; o < n; o++)
                if ((team[s] == team[o]) != (team_of_bot[at[s]] == team_of_bot[at[o]]))
                    return false;
    }
    return true;
}

int match_rules_build(const arb_game *g, const char *preset, const char *options, void *rules, char *err,
                      size_t errlen)
{
    if (!g) {
        snprintf(err, errlen, "no game");
        return ARB_EINVAL;
    }
    if (!preset || !*preset)
        preset = g->default_preset;
    if (g->rules_preset(rules, preset) != 0) {
        int n = snprintf(err, errlen, "unknown rules preset \"%s\" for %s (presets:", preset, g->name);
        for (const char *const *p = g->presets ? g->presets() : NULL; p && *p && n > 0 && (size_t)n < errlen; p++)
            n += snprintf(err + n, errlen - (size_t)n, " %s", *p);
        if (n > 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - (size_t)n, ")");
        return ARB_ENOTFOUND;
    }
    /* Options: "key=value" separated by newlines, commas, tabs or spaces. */
    char opts[ARB_MAX_OPTIONS_TEXT];
    if (snprintf(opts, sizeof opts, "%s", options ? options : "") >= (int)sizeof opts) {
        snprintf(err, errlen, "options longer than %d bytes (ARB_MAX_OPTIONS_TEXT)", ARB_MAX_OPTIONS_TEXT);
        return ARB_ETOOBIG;
    }
    char *save = NULL;
    for (char *tok = strtok_r(opts, "\n, \t", &save); tok; tok = strtok_r(NULL, "\n, \t", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            snprintf(err, errlen, "option \"%s\": expected key=value", tok);
            return ARB_EINVAL;
        }
        *eq = 0;
        int rc = g->rules_set(rules, tok, eq + 1, err, errlen);
        if (rc)
            return rc;
    }
    return g->rules_check(rules, err, errlen);
}

int match_config_rules(const match_config *cfg, void *rules, char *err, size_t errlen)
{
    const arb_game *g = cfg->game;
    int rc = match_rules_build(g, cfg->preset, cfg->options, rules, err, errlen);
    if (rc)
        return rc;
    int seats = g->seats(rules);
    if (cfg->nbots != seats) {
        snprintf(err, errlen, "%s with these rules seats %d players, %d bots given", g->name, seats, cfg->nbots);
        return ARB_EINVAL;
    }
    if (cfg->deals < 1 || match_games(cfg) > ARB_MAX_DEALS) {
        snprintf(err, errlen, "%u deals (x seatings) is outside 1..%d (ARB_MAX_DEALS)", cfg->deals, ARB_MAX_DEALS);
        return ARB_ERANGE;
    }
    if (cfg->duplicate >= MATCH_DUP_COUNT) {
        snprintf(err, errlen, "duplicate mode %u: expected %s", cfg->duplicate, MATCH_DUPLICATE_NAMES);
        return ARB_EINVAL;
    }
    int8_t team[ARB_MAX_SEATS];
    int nteams = g->teams(rules, team);
    if (cfg->duplicate == MATCH_DUP_SWAP && nteams != 2) {
        snprintf(err, errlen, "duplicate swap swaps two teams' seats, and %s has no two fixed teams; play it with "
                 "duplicate rotate or all", g->name);
        return ARB_EINVAL;
    }
    if (match_tables(cfg) > ARB_MAX_MATCH_TABLES) {
        snprintf(err, errlen, "duplicate %s: %u tables, more than %d (ARB_MAX_MATCH_TABLES)",
                 match_duplicate_name((match_duplicate)cfg->duplicate), match_tables(cfg), ARB_MAX_MATCH_TABLES);
        return ARB_ERANGE;
    }
    if (nteams > 0 && !keeps_partners(cfg, team)) {
        snprintf(err, errlen, "duplicate %s would split %s's partners: every seating must keep partners in "
                 "partners' seats", match_duplicate_name((match_duplicate)cfg->duplicate), g->name);
        return ARB_EINVAL;
    }
    if (cfg->move_ms < 1 || cfg->bank_ms < 0 || cfg->startup_ms < 1 || cfg->deal_ms < -1) {
        snprintf(err, errlen, "clock: move and start-up must be >= 1 ms, bank >= 0, deal >= 0 or -1");
        return ARB_ERANGE;
    }
    for (int b = 0; b < cfg->nbots; b++)
        if (cfg->bots[b].argc < 1 || cfg->bots[b].argv[0][0] != '/' || !cfg->bots[b].name[0]) {
            snprintf(err, errlen, "bot %d: needs a name and an absolute program path", b);
            return ARB_EINVAL;
        } else if (cfg->bots[b].startup_ms < 0 || cfg->bots[b].startup_ms > ARB_MAX_STARTUP_MS
                   || cfg->bots[b].nenv < 0 || cfg->bots[b].nenv > ARB_MAX_BOT_ENV) {
            snprintf(err, errlen, "bot %d: start-up budget or environment out of range", b);
            return ARB_ERANGE;
        }
    return 0;
}

uint64_t match_startup_ns(const match_config *cfg, int bot)
{
    int64_t ms = bot >= 0 && bot < cfg->nbots && cfg->bots[bot].startup_ms > 0 ? cfg->bots[bot].startup_ms
                                                                                 : cfg->startup_ms;
    return (uint64_t)(ms > 0 ? ms : 1) * 1000000u;
}

/* Variables a bot may not declare, and why: the referee's own, and those
 * read by the dynamic loader or the C library as a program starts.
 * bubblewrap starts with the bot's environment and builds the sandbox
 * with the referee's privileges (user namespaces, or setuid root), so
 * whatever changes how it loads or behaves is refused whole; the list is
 * glibc's own of variables it drops for a privileged program
 * (unsecvars.h), the loader's prefix, the locale's, and the allocator's
 * tunables. What only the bot's own program reads (PYTHONPATH, OMP_*,
 * MODEL_DIR ...) is the bot's business: it could set it for itself. */
static const struct {
    const char *name;
    bool prefix;
    const char *why;
} env_refused[] = {
    {"PATH", false, "set by the referee (/usr/local/bin:/usr/bin:/bin)"},
    {"HOME", false, "set by the referee (the bot's working directory)"},
    {"LANG", false, "set by the referee (C.UTF-8)"},
    {"ARBITER_", true, "the referee's own prefix"},
    {"LD_", true, "read by the dynamic loader of every program started with it, bubblewrap first"},
    {"LC_", true, "the locale is the referee's (LANG=C.UTF-8)"},
    {"LANGUAGE", false, "the locale is the referee's (LANG=C.UTF-8)"},
    {"MALLOC_", true, "read by the C library's allocator of every program started with it"},
    {"GLIBC_", true, "read by the C library of every program started with it (GLIBC_TUNABLES)"},
    {"GCONV_PATH", false, "makes the C library load code from a path"},
    {"GETCONF_DIR", false, "read by the C library (a privileged program drops it)"},
    {"HOSTALIASES", false, "read by the C library's resolver (a privileged program drops it)"},
    {"LOCALDOMAIN", false, "read by the C library's resolver (a privileged program drops it)"},
    {"LOCPATH", false, "makes the C library load locale files from a path"},
    {"NIS_PATH", false, "read by the C library (a privileged program drops it)"},
    {"NLSPATH", false, "makes the C library read message catalogues from a path"},
    {"RESOLV_HOST_CONF", false, "read by the C library's resolver (a privileged program drops it)"},
    {"RES_OPTIONS", false, "read by the C library's resolver (a privileged program drops it)"},
    {"TMPDIR", false, "a bot's scratch space is its private /tmp"},
    {"TZDIR", false, "makes the C library read time zone files from a path"},
};

int match_env_check(const char *entry, char *err, size_t errlen)
{
    const char *eq = strchr(entry, '=');
    size_t n = eq ? (size_t)(eq - entry) : strlen(entry);
    if (!eq) {
        snprintf(err, errlen, "\"%.*s\": expected NAME=value", (int)(n < 64 ? n : 64), entry);
        return ARB_EINVAL;
    }
    bool ok = n >= 1 && n <= ARB_MAX_BOT_ENV_NAME && !(entry[0] >= '0' && entry[0] <= '9');
    for (size_t i = 0; i < n && ok; i++)
        ok = (entry[i] >= 'A' && entry[i] <= 'Z') || (entry[i] >= '0' && entry[i] <= '9') || entry[i] == '_';
    if (!ok) {
        snprintf(err, errlen, "\"%.*s\": a variable's name is 1 to %d of A-Z 0-9 _, not starting with a digit",
                 (int)(n < 64 ? n : 64), entry, ARB_MAX_BOT_ENV_NAME);
        return ARB_EINVAL;
    }
    for (size_t i = 0; i < sizeof env_refused / sizeof env_refused[0]; i++) {
        size_t k = strlen(env_refused[i].name);
        if (env_refused[i].prefix ? n >= k && strncmp(entry, env_refused[i].name, k) == 0
                                  : n == k && strncmp(entry, env_refused[i].name, k) == 0) {
            snprintf(err, errlen, "%.*s: not a variable a bot may set: %s", (int)n, entry, env_refused[i].why);
            return ARB_EINVAL;
        }
    }
    for (const char *c = eq + 1; *c; c++)
        if (*c < 0x20 || *c > 0x7e) {
            snprintf(err, errlen, "%.*s: its value holds byte 0x%02x at offset %zu (printable ASCII only)", (int)n,
                     entry, (unsigned)(unsigned char)*c, (size_t)(c - eq - 1));
            return ARB_EINVAL;
        }
    return 0;
}

int match_env_add(match_bot_cfg *b, const char *entry, char *err, size_t errlen)
{
    int rc = match_env_check(entry, err, errlen);
    if (rc)
        return rc;
    size_t n = (size_t)(strchr(entry, '=') - entry), used = strlen(b->env);
    for (const char *line = b->env; *line; line = strchr(line, '\n') + 1)
        if (strncmp(line, entry, n + 1) == 0) {
            snprintf(err, errlen, "%.*s: declared twice", (int)n, entry);
            return ARB_EINVAL;
        }
    if (b->nenv >= ARB_MAX_BOT_ENV) {
        snprintf(err, errlen, "%.*s: more than %d variables (ARB_MAX_BOT_ENV)", (int)n, entry, ARB_MAX_BOT_ENV);
        return ARB_ETOOBIG;
    }
    if (used + strlen(entry) + 2 > sizeof b->env) {
        snprintf(err, errlen, "%.*s: the variables pass %d bytes in all (ARB_MAX_BOT_ENV_TEXT)", (int)n, entry,
                 ARB_MAX_BOT_ENV_TEXT - 1);
        return ARB_ETOOBIG;
    }
    snprintf(b->env + used, sizeof b->env - used, "%s\n", entry);
    b->nenv++;
    return 0;
}

int match_env_set(match_bot_cfg *b, const char *text, char *err, size_t errlen)
{
    char line[ARB_MAX_BOT_ENV_TEXT + 1];
    while (text && *text) {
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        if (n >= sizeof line) {
            snprintf(err, errlen, "a variable of more than %d bytes (ARB_MAX_BOT_ENV_TEXT)", ARB_MAX_BOT_ENV_TEXT);
            return ARB_ETOOBIG;
        }
        memcpy(line, text, n);
        line[n] = 0;
        int rc = n ? match_env_add(b, line, err, errlen) : 0;
        if (rc)
            return rc;
        text += n + (nl != NULL);
    }
    return 0;
}

static uint32_t factorial(int n)
{
    uint32_t f = 1;
    for (int i = 2; i <= n; i++)
        f *= (uint32_t)i;
    return f;
}

static uint32_t seatings(const match_config *cfg)
{
    switch (cfg->duplicate) {
    case MATCH_DUP_ROTATE: return (uint32_t)cfg->nbots;
    case MATCH_DUP_ALL: return factorial(cfg->nbots);
    case MATCH_DUP_SWAP: return 2;
    default: return 1;
    }
}

uint32_t match_seatings(const match_config *cfg) { return seatings(cfg); }

uint32_t match_tables(const match_config *cfg)
{
    return cfg->game && cfg->game->match_ends_early && cfg->duplicate != MATCH_DUP_OFF ? seatings(cfg) : 0;
}

uint32_t match_games(const match_config *cfg)
{
    uint64_t g = (uint64_t)cfg->deals * seatings(cfg);
    return g > UINT32_MAX ? UINT32_MAX : (uint32_t)g;
}

void match_seating(const match_config *cfg, uint32_t g, uint32_t *deal, uint32_t *seating,
                   uint8_t bot_at[ARB_MAX_SEATS])
{
    int n = cfg->nbots;
    uint32_t k = seatings(cfg);
    uint32_t nd = cfg->deals ? cfg->deals : 1;
    /* Seating-major: a seating block plays every deal once. */
    *deal = cfg->duplicate == MATCH_DUP_OFF ? g : g % nd;
    if (cfg->duplicate == MATCH_DUP_ALL) {
        /* The seating-th permutation in lexicographic order. */
        uint32_t idx = (g / nd) % k;
        *seating = idx;
        uint8_t pool[ARB_MAX_SEATS];
        for (int i = 0; i < n; i++)
            pool[i] = (uint8_t)i;
        int left = n;
        for (int i = 0; i < n; i++) {
            uint32_t f = factorial(left - 1);
            uint32_t j = idx / f;
            idx %= f;
            bot_at[i] = pool[j];
            memmove(pool + j, pool + j + 1, (size_t)(left - 1 - (int)j));
            left--;
        }
        return;
    }
    /* Rotation r puts bot b in seat (b + r) mod n: over n games each bot
     * sits every seat once; swap is rotations 0 and 1 (with partners
     * opposite, one seat on puts each team in the other's seats). Without
     * duplicate the rotation follows the deal number, unless seats are
     * fixed. */
    uint32_t r = cfg->duplicate == MATCH_DUP_ROTATE || cfg->duplicate == MATCH_DUP_SWAP
                     ? (g / nd) % k : (cfg->fixed_seats ? 0 : g % (uint32_t)n);
    *seating = r;
    for (int b = 0; b < n; b++)
        bot_at[(b + (int)r) % n] = (uint8_t)b;
}

bool match_restarts_before(const match_config *cfg, uint32_t g)
{
    return cfg->duplicate != MATCH_DUP_OFF && cfg->deals > 0 && g > 0 && g % cfg->deals == 0;
}

int match_set_key(match_config *cfg, const uint8_t secret[32], const char *label)
{
    if (strlen(label) >= sizeof cfg->key_label)
        return ARB_ETOOBIG;
    int rc = arb_key_derive(secret, label, cfg->key);
    if (rc)
        return rc;
    snprintf(cfg->key_label, sizeof cfg->key_label, "%s", label);
    arb_key_commitment(secret, cfg->commitment);
    return 0;
}

void match_result_release(match_result *res)
{
    free(res->deals);
    res->deals = NULL;
    free(res->penalties);
    res->penalties = NULL;
    res->npenalties = 0;
}


/* Resolve a program name: absolute, relative to base, or in the bot's own
 * PATH first (a program found under the user's home may not be reachable
 * by the bot's uid), then the caller's. */
static int resolve_program(const char *name, const char *base, char *out, size_t len)
{
    if (strchr(name, '/')) {
        char joined[2048];
        if (name[0] != '/' && base)
            snprintf(joined, sizeof joined, "%s/%s", base, name);
        else
            snprintf(joined, sizeof joined, "%s", name);
        /* the directory resolved, the program's own name kept: a venv's
         * bin/python is a link to the system's interpreter, and Python
         * finds its environment (V/pyvenv.cfg) from the name it was run by */
        char real[4096], dir[2048];
        const char *slash = strrchr(joined, '/');
        const char *leaf = slash + 1;
        snprintf(dir, sizeof dir, "%.*s", slash == joined ? 1 : (int)(slash - joined), joined);
        if (!*leaf || strcmp(leaf, ".") == 0 || strcmp(leaf, "..") == 0 || !realpath(dir, real)
            || strlen(real) + 1 + strlen(leaf) >= len)
            return ARB_ENOTFOUND;
        size_t rl = strcmp(real, "/") == 0 ? 0 : strlen(real), ll = strlen(leaf);
        memcpy(out, real, rl);
        out[rl] = '/';
        memcpy(out + rl + 1, leaf, ll + 1);   /* fits: checked above */
        return access(out, X_OK) == 0 ? 0 : ARB_ENOTFOUND;
    }
    char both[8192];
    snprintf(both, sizeof both, "/usr/local/bin:/usr/bin:/bin:%s", getenv("PATH") ? getenv("PATH") : "");
    const char *path = both;
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        snprintf(out, len, "%.*s/%s", (int)n, path, name);
        if (n && out[0] == '/' && access(out, X_OK) == 0)
            return 0;
        path += n + (colon != NULL);
    }
    return ARB_ENOTFOUND;
}

int match_bot_command(match_bot_cfg *b, const char *name, const char *command, const char *base_dir,
                     char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s", command);
    char *save = NULL;
    for (char *tok = strtok_r(cmd, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        if (b->argc >= ARB_MAX_BOT_ARGS) {
            snprintf(err, errlen, "bot %s: more than %d arguments", name, ARB_MAX_BOT_ARGS);
            return ARB_ETOOBIG;
        }
        char *dst = b->argv[b->argc];
        size_t cap = sizeof b->argv[0];
        char joined[2048], real[4096];
        if (tok[0] != '/' && base_dir)
            snprintf(joined, sizeof joined, "%s/%s", base_dir, tok);
        else
            snprintf(joined, sizeof joined, "%s", tok);
        if (b->argc == 0) {
            if (resolve_program(tok, base_dir, dst, cap) != 0) {
                snprintf(err, errlen, "bot %s: program \"%s\" not found or not executable", name, tok);
                return ARB_ENOTFOUND;
            }
        } else if (tok[0] != '/' && access(joined, F_OK) == 0 && realpath(joined, real) && strlen(real) < cap) {
            memcpy(dst, real, strlen(real) + 1);   /* a file argument: the bot runs elsewhere */
        } else if (strlen(tok) >= cap) {
            snprintf(err, errlen, "bot %s: argument longer than %zu bytes", name, cap - 1);
            return ARB_ETOOBIG;
        } else {
            memcpy(dst, tok, strlen(tok) + 1);   /* shorter than cap: just checked */
        }
        b->argc++;
    }
    if (b->argc == 0) {
        snprintf(err, errlen, "bot %s: empty command", name);
        return ARB_EINVAL;
    }
    return 0;
}
