/* options.c — what every command's parsing shares (cli.h): getopt_long
 * with messages that name the command and suggest the option meant, output
 * formats, and the game a command is about. */
#include "cli.h"
#include "arb_num.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_names.h"
#include "arb_buf.h"
#include "arb_text.h"
#include "match_def.h"
#include "arb_file.h"
#include "store_cols.h"

#include <inttypes.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cli_opts_begin(void)
{
    /* glibc: 0 starts a new scan (and forgets the last one's permutation) */
    optind = 0;
    opterr = 0;
}

/* The long option nearest to the word typed ("--wrokers" -> "workers"). */
static const char *near_option(const char *typed, const struct option *longopts)
{
    const char *names[64];
    size_t n = 0;
    for (; longopts[n].name && n + 1 < sizeof names / sizeof names[0]; n++)
        names[n] = longopts[n].name;
    names[n] = NULL;
    char word[64];
    size_t len = strcspn(typed, "=");
    snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1), typed);
    /* a third of the word's length in edits, at least two */
    size_t max = strlen(word) / 3 + 1;
    return arb_suggest(word, names, max < 3 ? 3 : max);
}

int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts)
{
    int idx = -1;
    int c = getopt_long(argc, argv, shortopts, longopts, &idx);
    if (c != '?' && c != ':')
        return c;
    const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
    if (c == ':') {
        /* the option's own word is the last one taken */
        fprintf(stderr, "arbiter: %s: %s needs a value\n", cmd, arg);
        return '?';
    }
    if (optopt && !(arg[0] == '-' && arg[1] == '-')) {
        fprintf(stderr, "arbiter: %s: unknown option -%c\n", cmd, optopt);
        return '?';
    }
    const char *near = strncmp(arg, "--", 2) == 0 ? near_option(arg + 2, longopts) : NULL;
    char shown[80];
    snprintf(shown, sizeof shown, "%.*s", (int)strcspn(arg, "="), arg);
    /* a prefix of several options (getopt_long takes a unique one) */
    size_t plen = strlen(shown) > 2 ? strlen(shown) - 2 : 0;
    int prefixed = 0;
    for (int k = 0; plen && longopts[k].name; k++)
        prefixed += strncmp(longopts[k].name, shown + 2, plen) == 0;
    if (prefixed == 1 && strchr(arg, '=') && strncmp(arg, "--", 2) == 0) {
        /* a known option given a value it does not take (--help=x) */
        for (int k = 0; longopts[k].name; k++)
            if (strncmp(longopts[k].name, shown + 2, plen) == 0 && longopts[k].has_arg == no_argument) {
                fprintf(stderr, "arbiter: %s: --%s takes no value\n", cmd, longopts[k].name);
                return '?';
            }
    }
    if (prefixed > 1) {
        fprintf(stderr, "arbiter: %s: ambiguous option %s (", cmd, shown);
        for (int k = 0, n = 0; longopts[k].name; k++)
            if (strncmp(longopts[k].name, shown + 2, plen) == 0)
                fprintf(stderr, "%s--%s", n++ ? ", " : "", longopts[k].name);
        fprintf(stderr, ")\n");
        return '?';
    }
    if (near)
        fprintf(stderr, "arbiter: %s: unknown option %s (did you mean --%s?)\n", cmd, shown, near);
    else
        fprintf(stderr, "arbiter: %s: unknown option %s\n", cmd, shown);
    return '?';
}

int cli_int_arg(const char *cmd, const char *opt, const char *val, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(val, &end, 10);
    if (errno || *end || end == val || v < lo || v > hi) {
        fprintf(stderr, "arbiter: %s: --%s \"%s\": expected an integer in %lld..%lld\n", cmd, opt, val, lo, hi);
        return 1;
    }
    *out = v;
    return 0;
}

int cli_match_id(const char *cmd, const char *what, const char *val, int64_t *id)
{
    char *end;
    errno = 0;
    long long v = strtoll(val, &end, 10);
    if (errno || *end || end == val || v < 1 || !(val[0] >= '0' && val[0] <= '9')) {
        char term[128];
        fprintf(stderr, "arbiter: %s: %s \"%s\": not a match id (a positive integer)\n", cmd, what,
                arb_term(val, term, sizeof term));
        return 1;
    }
    *id = v;
    return 0;
}

int cli_append_option(char *list, size_t cap, const char *val)
{
    size_t l = strlen(list);
    int n = snprintf(list + l, cap - l, "%s%s", l ? "," : "", val);
    if (n < 0 || (size_t)n >= cap - l) {
        list[l] = 0;
        return 1;
    }
    return 0;
}

int cli_count_opt(const char *text)
{
    int v;
    return arb_parse_int(text, 0, INT_MAX, &v) == 0 ? v : -1;
}

static const char *const format_names[] = {"table", "csv", "json", NULL};

int cli_format_parse(const char *cmd, const char *text, unsigned allowed, cli_format *out)
{
    for (int f = 0; format_names[f]; f++)
        if (strcmp(text, format_names[f]) == 0 && (allowed >> f & 1)) {
            *out = (cli_format)f;
            return 0;
        }
    fprintf(stderr, "arbiter: %s: --format \"%s\": expected", cmd, text);
    for (int f = 0, k = 0; format_names[f]; f++)
        if (allowed >> f & 1)
            fprintf(stderr, "%s %s", k++ ? "," : "", format_names[f]);
    fprintf(stderr, "\n");
    return 1;
}

void cli_json_string(FILE *f, const char *s)
{
    arb_buf b;
    arb_buf_init(&b, 0);
    if (arb_json_str(&b, s, strlen(s)) == 0)
        fputs(arb_buf_str(&b), f);
    else
        fputs("\"\"", f);   /* past ARB_BUF_DEFAULT_CAP: no text of ours comes near */
    arb_buf_release(&b);
}

void cli_csv_field(FILE *f, const char *s)
{
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

const arb_game *cli_game(const char *name)
{
    const arb_game *g = arb_game_find(name ? name : CLI_DEFAULT_GAME);
    if (g)
        return g;
    const arb_game *const *all = arb_games();
    const char *names[32];
    size_t n = 0;
    for (; all[n] && n + 1 < sizeof names / sizeof names[0]; n++)
        names[n] = all[n]->name;
    names[n] = NULL;
    const char *near = arb_suggest(name, names, 3);
    fprintf(stderr, "arbiter: unknown game \"%s\"", name);
    if (near)
        fprintf(stderr, " (did you mean \"%s\"?)", near);
    fprintf(stderr, "; games:");
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, " %s", names[i]);
    fprintf(stderr, "\n");
    return NULL;
}

void *cli_rules_new(const arb_game *g, const char *preset, const char *options)
{
    void *rules = calloc(1, g->rules_size);
    char err[512] = "";
    if (!rules) {
        fprintf(stderr, "arbiter: out of memory\n");
        return NULL;
    }
    if (match_rules_build(g, preset, options, rules, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s\n", err);
        free(rules);
        return NULL;
    }
    return rules;
}

int cli_reader_open(const char *cmd, int argc, char **argv, unsigned formats, bool want_name, void (*usage)(FILE *),
                    cli_reader *r)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"state", required_argument, NULL, 's'},
        {"db", required_argument, NULL, 'd'},
        {"format", required_argument, NULL, 'f'},
        {NULL, 0, NULL, 0},
    };
    *r = (cli_reader){.state = "arbiter-state", .format = CLI_FORMAT_TABLE};
    int opt;
    cli_opts_begin();
    while ((opt = cli_getopt(cmd, argc, argv, ":h", opts)) != -1) {
        switch (opt) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 's': r->state = optarg; break;
        case 'd': r->db = optarg; break;
        case 'f':
            if (cli_format_parse(cmd, optarg, formats, &r->format))
                return CLI_EXIT_USAGE;
            break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind != (want_name ? 1 : 0)) {
        if (!want_name)
            fprintf(stderr, "arbiter: %s: unexpected \"%s\"\n", cmd, argv[optind]);
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    r->name = want_name ? argv[optind] : NULL;
    return cli_reader_connect(cmd, r);
}

int cli_reader_connect(const char *cmd, cli_reader *r)
{
    char err[1024];
    int rc = cli_open_record(&r->place, r->state, r->db, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: %s\n", err);
        return rc == ARB_ENOTFOUND ? CLI_EXIT_NORECORD : CLI_EXIT_USAGE;
    }
    r->st = store_open(r->place.conninfo, err, sizeof err);
    if (!r->st) {
        cli_say_unreachable(cmd, err);
        cli_close_place(&r->place);
        return CLI_EXIT_USAGE;
    }
    int ready = cli_record_ready(cmd, r->st, &r->place);
    if (ready >= 0)
        r->st = NULL;   /* closed with the place */
    return ready;
}

int cli_match_transcript(const char *cmd, store *st, int64_t mid, uint8_t **data, size_t *len, char digest[65],
                         char signer[65])
{
    char err[1024];
    store_rows m = {0};
    int status = CLI_EXIT_OK;
    *data = NULL;
    *len = 0;
    if (store_web(st, STORE_WEB_MATCH, mid, NULL, &m, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s: %s\n", cmd, err);
        status = CLI_EXIT_FAIL;
    } else if (m.nrows != 1) {
        fprintf(stderr, "arbiter: %s: no match %" PRId64 " in the record\n", cmd, mid);
        status = CLI_EXIT_NORECORD;
    } else if (store_transcript_load(st, store_cell(&m, 0, STORE_WMATCH_DIGEST),
                                     store_cell(&m, 0, STORE_WMATCH_TRANSCRIPT), data, len, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s: match %" PRId64 ": %s\n", cmd, mid, err);
        status = CLI_EXIT_USAGE;
    } else {
        snprintf(digest, 65, "%s", store_cell(&m, 0, STORE_WMATCH_DIGEST));
        snprintf(signer, 65, "%s", store_cell(&m, 0, STORE_WMATCH_SIGNER_KEY));
    }
    store_rows_release(&m);
    return status;
}

int cli_record_ready(const char *cmd, store *st, db_place *place)
{
    char err[1024];
    int rc = store_ready(st, err, sizeof err);
    if (!rc)
        return -1;
    fprintf(stderr, "arbiter: %s: %s\n", cmd, err);
    store_close(st);
    cli_close_place(place);
    return rc == ARB_ENOTFOUND ? CLI_EXIT_NORECORD : CLI_EXIT_USAGE;
}

void cli_reader_close(cli_reader *r)
{
    store_close(r->st);
    r->st = NULL;
    cli_close_place(&r->place);
}

int cli_sub_help(int argc, char **argv, void (*usage)(FILE *f))
{
    if (argc >= 2 && strcmp(argv[1], "--help") != 0 && strcmp(argv[1], "-h") != 0)
        return -1;
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

int cli_bots_reachable(const char *cmd, const match_bot_cfg *bots, int nbots)
{
    for (int b = 0; b < nbots; b++)
        for (int k = 0; k < bots[b].argc; k++) {
            const char *path = bots[b].argv[k];
            struct stat st;
            /* the program, and any argument that is a file by its absolute
             * path (python3 /root/bot.py): the bot's uid must read it */
            if (path[0] != '/' || (k > 0 && (stat(path, &st) != 0 || !S_ISREG(st.st_mode))))
                continue;
            char blocked[4096], name[256];
            if (arb_others_can_reach(path, k == 0 ? X_OK : R_OK, blocked, sizeof blocked) != 0)
                continue;
            arb_term(bots[b].name, name, sizeof name);
            if (strcmp(blocked, path) == 0)
                fprintf(stderr, "arbiter: %s: bot %s: %s cannot be %s by the bots' own uids (as root each bot runs "
                                "under a uid of its own): make it so (chmod o+%s %s), or copy the bot where "
                                "others can read it (/opt, /srv, /usr/local)\n", cmd, name, path,
                        k == 0 ? "run" : "read", k == 0 ? "rx" : "r", path);
            else
                fprintf(stderr, "arbiter: %s: bot %s: %s cannot be reached by the bots' own uids (as root each bot "
                                "runs under a uid of its own): the directory %s is closed to others (mode %04o); "
                                "open it for traversal (chmod o+x %s) or copy the bot where others can enter "
                                "(/opt, /srv, /usr/local)\n", cmd, name, path, blocked,
                        stat(blocked, &st) == 0 ? (unsigned)(st.st_mode & 07777) : 0u, blocked);
            return -1;
        }
    return 0;
}
