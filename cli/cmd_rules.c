/* cmd_rules.c — `arbiter rules`: a game's rule presets, and a preset's
 * full option set with any --set applied (what a tournament's rules line
 * means, exactly), as key=value lines or JSON. Generic: everything comes
 * through the arb_game interface. */
#include "cli.h"
#include "arb_limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: arbiter rules [--game NAME] [--rules PRESET] [--set k=v,...] [--presets]\n"
        "                     [--format table|json]\n"
        "  Prints every option of the rule set as key=value (the first line names the\n"
        "  preset). --presets lists the game's presets instead, one a line. With\n"
        "  --format json: one object {\"game\", \"preset\", \"presets\", \"options\"}.\n"
        "  --game NAME  the game (default %s)\n", CLI_DEFAULT_GAME);
}

/* A described value as JSON: true/false and integers bare, the rest a string. */
static void json_value(const char *v)
{
    size_t digits = strspn(v, "0123456789");
    if (strcmp(v, "true") == 0 || strcmp(v, "false") == 0 || (digits && !v[digits] && (v[0] != '0' || !v[1])))
        fputs(v, stdout);
    else
        cli_json_string(stdout, v);
}

static void print_json(const arb_game *g, const char *preset, char *options)
{
    printf("{\"game\":");
    cli_json_string(stdout, g->name);
    printf(",\"presets\":[");
    int k = 0;
    for (const char *const *p = g->presets(); *p; p++, k++) {
        printf("%s", k ? "," : "");
        cli_json_string(stdout, *p);
    }
    printf("],\"preset\":");
    cli_json_string(stdout, preset);
    printf(",\"options\":{");
    char *save = NULL;
    int nopts = 0;
    for (char *line = strtok_r(options, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        *eq = 0;
        printf("%s", nopts++ ? "," : "");
        cli_json_string(stdout, line);
        printf(":");
        json_value(eq + 1);
    }
    printf("}}\n");
}

int cmd_rules(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"game", required_argument, NULL, 'g'},
        {"rules", required_argument, NULL, 'r'},
        {"set", required_argument, NULL, 's'},
        {"presets", no_argument, NULL, 'P'},
        {"format", required_argument, NULL, 'f'},
        {NULL, 0, NULL, 0},
    };
    const char *game = NULL, *preset = NULL;
    char sets[ARB_MAX_OPTIONS_TEXT] = "";
    bool presets = false;
    cli_format format = CLI_FORMAT_TABLE;
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("rules", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 'g': game = optarg; break;
        case 'r': preset = optarg; break;
        case 'P': presets = true; break;
        case 's':
            if (cli_append_option(sets, sizeof sets, optarg)) {
                fprintf(stderr, "arbiter: rules: --set: too many options\n");
                return CLI_EXIT_USAGE;
            }
            break;
        case 'f':
            if (cli_format_parse("rules", optarg, CLI_FORMATS_TJ, &format))
                return CLI_EXIT_USAGE;
            break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "arbiter: rules: unexpected \"%s\"\n", argv[optind]);
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const arb_game *g = cli_game(game);
    if (!g)
        return CLI_EXIT_USAGE;
    void *rules = cli_rules_new(g, preset, sets);
    if (!rules)
        return CLI_EXIT_USAGE;
    static char buf[65536];
    g->rules_describe(rules, buf, sizeof buf);
    free(rules);
    /* The preset is the command's to name (the one asked for, or the
     * game's default), not left to the game's describe text, which need
     * not name it; a describe that does (Dou Dizhu's) is not repeated. */
    const char *name = preset && *preset ? preset : g->default_preset;
    char *options = buf;
    if (strncmp(options, "preset=", 7) == 0)
        options += strcspn(options, "\n") + (options[strcspn(options, "\n")] ? 1 : 0);
    if (format == CLI_FORMAT_JSON)
        print_json(g, name, options);
    else if (presets)
        for (const char *const *p = g->presets(); *p; p++)
            printf("%s\n", *p);
    else {
        size_t len = strlen(options);
        printf("preset=%s\n%s%s", name, options, len && options[len - 1] != '\n' ? "\n" : "");
    }
    return CLI_EXIT_OK;
}
