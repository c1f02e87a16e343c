/* game_cli.c — the per-game command-line modules (game_cli.h), listed by
 * the build from the game folders (games/<game>/meson.build). */
#include "game_cli.h"
#include "game_cli_list.h"

#include <stdio.h>
#include <string.h>

#define DECLARE(m) extern const game_cli m;
GAME_CLI_MODULES(DECLARE)
#undef DECLARE
#define ENTRY(m) &m,
static const game_cli *const modules[] = {GAME_CLI_MODULES(ENTRY) NULL};
#undef ENTRY

const game_cli *game_cli_find(const arb_game *g)
{
    for (size_t i = 0; modules[i]; i++)
        if (strcmp(modules[i]->game, g->name) == 0)
            return modules[i];
    return NULL;
}

int game_cli_lacks(const game_cli *m, bool has, const arb_game *g, const char *command)
{
    if (has)
        return 0;
    fprintf(stderr, "arbiter: %s: the game %s has no `arbiter %s` (%s)\n", command, g->name, command,
            m ? "its command-line module does not offer it" : "it has no command-line module: cli/game_cli.h");
    return 1;
}

/* Split "k=v,k=v" (the separators match_rules_build reads) into the
 * module's context keys, into *ctx, and the rest, the rules' options.
 * Nonzero when a list does not fit (it always does: both are no longer
 * than sets, which is bounded as they are). */
static int split_context(const game_cli *m, const char *sets, cli_context *ctx, char *rest, size_t restlen)
{
    memset(ctx, 0, sizeof *ctx);
    rest[0] = 0;
    if (snprintf(ctx->text, sizeof ctx->text, "%s", sets ? sets : "") >= (int)sizeof ctx->text)
        return -1;
    char *save = NULL;
    for (char *tok = strtok_r(ctx->text, "\n, \t", &save); tok; tok = strtok_r(NULL, "\n, \t", &save)) {
        char *eq = strchr(tok, '=');
        bool is_context = false;
        for (const char *const *k = m ? m->context_keys : NULL; eq && k && *k; k++)
            if (strlen(*k) == (size_t)(eq - tok) && strncmp(*k, tok, (size_t)(eq - tok)) == 0)
                is_context = true;
        if (!is_context) {
            if (cli_append_option(rest, restlen, tok))
                return -1;
            continue;
        }
        if (ctx->n == CLI_MAX_CONTEXT)
            return -1;
        *eq = 0;
        ctx->key[ctx->n] = tok;
        ctx->value[ctx->n++] = eq + 1;
    }
    return 0;
}

const char *cli_context_get(const cli_context *c, const char *key)
{
    const char *v = NULL;
    for (int i = 0; c && i < c->n; i++)
        if (strcmp(c->key[i], key) == 0)
            v = c->value[i];
    return v;
}

static int begin(const char *command, game_cli_op op, const char *game, const char *preset, const char *sets,
                 bool help, bool bad, void (*usage)(FILE *f, const game_cli *m), const game_cli **m, void **rules,
                 cli_context *ctx)
{
    if (help || bad) {
        const arb_game *hg = arb_game_find(game ? game : CLI_DEFAULT_GAME);
        usage(help ? stdout : stderr, hg ? game_cli_find(hg) : NULL);
        return help ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    }
    const arb_game *g = cli_game(game);
    if (!g)
        return CLI_EXIT_USAGE;
    *m = game_cli_find(g);
    bool has = *m && (op == GAME_CLI_MOVES ? (*m)->moves != NULL
                      : op == GAME_CLI_PLAY ? (*m)->play != NULL
                      : op == GAME_CLI_TRICK ? (*m)->trick != NULL : (*m)->bench_rules != NULL);
    if (game_cli_lacks(*m, has, g, command))
        return CLI_EXIT_USAGE;
    char rest[ARB_MAX_OPTIONS_TEXT];
    if (ctx) {
        if (split_context(*m, sets, ctx, rest, sizeof rest)) {
            fprintf(stderr, "arbiter: %s: --set: too many options\n", command);
            return CLI_EXIT_USAGE;
        }
        sets = rest;
    }
    *rules = cli_rules_new(g, preset, sets);
    return *rules ? -1 : CLI_EXIT_USAGE;
}

int game_cli_begin(const char *command, game_cli_op op, const char *game, const char *preset, const char *sets,
                   bool help, bool bad, void (*usage)(FILE *f, const game_cli *m), const game_cli **m,
                   void **rules)
{
    return begin(command, op, game, preset, sets, help, bad, usage, m, rules, NULL);
}

int game_cli_begin_context(const char *command, game_cli_op op, const char *game, const char *preset,
                           const char *sets, bool help, bool bad, void (*usage)(FILE *f, const game_cli *m),
                           const game_cli **m, void **rules, cli_context *ctx)
{
    return begin(command, op, game, preset, sets, help, bad, usage, m, rules, ctx);
}

int game_cli_read_line(FILE *in, char *buf)
{
    size_t n = 0;
    bool any = false, nul = false, over = false;
    int c;
    while ((c = getc(in)) != EOF) {
        any = true;
        if (c == '\n')
            break;
        if (c == 0)
            nul = true;
        if (n < ARB_MAX_LINE + 1)
            buf[n++] = (char)c;
        else
            over = true;
    }
    if (!any)
        return 0;
    if (n && buf[n - 1] == '\r' && !over)
        n--;
    buf[n] = 0;
    if (over || n > ARB_MAX_LINE)
        return -1;
    return nul ? -2 : 1;
}

void game_cli_answer_lines(FILE *in, void (*answer)(void *ctx, char *line), void *ctx)
{
    char line[ARB_MAX_LINE + 2];
    int rc;
    while ((rc = game_cli_read_line(in, line)) != 0) {
        if (rc == -1)
            printf("error: line longer than %d bytes\n", ARB_MAX_LINE);
        else if (rc == -2)
            printf("error: a NUL byte in the line\n");
        else
            answer(ctx, line);
        fflush(stdout);
    }
}
