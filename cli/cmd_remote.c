/* cmd_remote.c — `arbiter join` and `arbiter remote`: taking part from
 * one's own machine through a server's participant API (docs/api.md) with
 * an account's token. join packs the bot's program here exactly as `arbiter
 * ladder join` packs it on the host (the command's files and --files, as a
 * bundle named by its digest), checks that its program starts here where it
 * can, and uploads it; remote me|entries|logs|retire|dispute|transcript|
 * register are the rest. --format json prints the server's JSON unchanged. */
#include "cli.h"
#include "remote.h"
#include "arb_error.h"
#include "arb_file.h"
#include "arb_limits.h"
#include "arb_names.h"
#include "arb_text.h"
#include "bundle.h"
#include "scheduler.h"

#include <jansson.h>

#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void join_usage(FILE *f)
{
    fprintf(f,
            "usage: arbiter join [--server URL] [--token-file FILE] LADDER NAME --command CMD\n"
            "                    [--files PATH]... [--replace] [--startup-ms N] [--env K=V]...\n"
            "                    [--cacert FILE] [--timeout SECONDS] [--format table|json]\n\n"
            "A new entry NAME in LADDER on the server at URL, as the account whose token FILE\n"
            "holds (the organiser gives it: the last line of `arbiter account add`). CMD's files\n"
            "(paths relative to this directory) and --files are packed here as `arbiter ladder\n"
            "join` packs them on the host, and uploaded; CMD is sent with each file named by its\n"
            "path in the bundle. A NAME already in the ladder joins as its next version (NAME.v2,\n"
            "...); --replace retires the one before once the new one is validated. --startup-ms:\n"
            "the start-up the bot needs (within the ladder's limit); --env: a variable its\n"
            "processes get. The entry plays a validation match first: `arbiter remote entries`\n"
            "shows its verdict.\n\n"
            "--server and --token-file may come from ARBITER_SERVER and ARBITER_TOKEN_FILE. The\n"
            "token file must be yours alone (chmod 600 FILE). https:// is checked against the\n"
            "system's CAs, or --cacert FILE (a server's self-made certificate); http:// is for\n"
            "this machine (to another, the token travels in clear: warned).\n");
}

static void remote_usage(FILE *f)
{
    fprintf(f,
            "usage: arbiter remote me\n"
            "       arbiter remote entries [--all]\n"
            "       arbiter remote logs LADDER ENTRY [--match ID]\n"
            "       arbiter remote retire LADDER ENTRY\n"
            "       arbiter remote dispute MATCH --reason TEXT\n"
            "       arbiter remote transcript MATCH [-o FILE]\n"
            "       arbiter remote register TOURNAMENT NAME --command CMD [--files PATH]...\n"
            "                               [--startup-ms N] [--env K=V]...\n"
            "       (each with [--server URL] [--token-file FILE] [--cacert FILE]\n"
            "        [--timeout SECONDS] [--format table|json])\n\n"
            "me          your account: its role and what is left of its quotas today.\n"
            "entries     your entries, their status and validation verdicts (--all: everyone's,\n"
            "            for arbiters and organisers).\n"
            "logs        the stderr of your entry's bots in its latest matches (or match ID).\n"
            "retire      ENTRY (NAME.vN as `remote entries` lists it) plays no new match.\n"
            "dispute     a complaint about one of your matches, for the arbiters.\n"
            "transcript  a match's transcript as JSON lines (others' stderr removed), to stdout\n"
            "            or FILE (written whole or not at all).\n"
            "register    an entry in a tournament whose registration is open (as join).\n\n"
            "--server and --token-file may come from ARBITER_SERVER and ARBITER_TOKEN_FILE;\n"
            "--format json prints the server's JSON unchanged (docs/api.md).\n");
}

/* What each subcommand takes beyond the common options. */
enum { O_COMMAND = 1, O_FILES = 2, O_REPLACE = 4, O_STARTUP = 8, O_ENV = 16, O_MATCH = 32, O_ALL = 64,
       O_REASON = 128, O_OUTPUT = 256 };

typedef struct opts {
    const char *server, *token_file, *cacert, *command, *reason, *output;
    char files[ARB_TN_MAX_COMMAND];
    const char *env[ARB_REMOTE_MAX_ENV];
    int nenv;
    long long startup_ms, timeout_s;
    int64_t match;
    bool replace, all;
    unsigned given;   /* the O_ flags of the options given */
    cli_format format;
} opts;

static int parse(const char *cmd, int argc, char **argv, opts *o, int *first, void (*usage)(FILE *))
{
    static const struct option lo[] = {
        {"help", no_argument, NULL, 'h'},          {"server", required_argument, NULL, 'S'},
        {"token-file", required_argument, NULL, 'T'}, {"cacert", required_argument, NULL, 'C'},
        {"timeout", required_argument, NULL, 't'},  {"format", required_argument, NULL, 'f'},
        {"command", required_argument, NULL, 'c'},  {"files", required_argument, NULL, 'F'},
        {"replace", no_argument, NULL, 'r'},        {"startup-ms", required_argument, NULL, 'u'},
        {"env", required_argument, NULL, 'e'},      {"match", required_argument, NULL, 'm'},
        {"all", no_argument, NULL, 'a'},            {"reason", required_argument, NULL, 'R'},
        {"output", required_argument, NULL, 'o'},   {NULL, 0, NULL, 0},
    };
    *o = (opts){.format = CLI_FORMAT_TABLE};
    int opt;
    size_t used = 0;
    cli_opts_begin();
    while ((opt = cli_getopt(cmd, argc, argv, ":ho:", lo)) != -1) {
        switch (opt) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 'S': o->server = optarg; break;
        case 'T': o->token_file = optarg; break;
        case 'C': o->cacert = optarg; break;
        case 't':
            if (cli_int_arg(cmd, "timeout", optarg, 1, 86400, &o->timeout_s))
                return CLI_EXIT_USAGE;
            break;
        case 'f':
            if (cli_format_parse(cmd, optarg, CLI_FORMATS_TJ, &o->format))
                return CLI_EXIT_USAGE;
            break;
        case 'c': o->command = optarg; o->given |= O_COMMAND; break;
        case 'r': o->replace = true; o->given |= O_REPLACE; break;
        case 'a': o->all = true; o->given |= O_ALL; break;
        case 'R': o->reason = optarg; o->given |= O_REASON; break;
        case 'o': o->output = optarg; o->given |= O_OUTPUT; break;
        case 'u':
            if (cli_int_arg(cmd, "startup-ms", optarg, 1, 3600000, &o->startup_ms))
                return CLI_EXIT_USAGE;
            o->given |= O_STARTUP;
            break;
        case 'm':
            if (cli_match_id(cmd, "--match", optarg, &o->match))
                return CLI_EXIT_USAGE;
            o->given |= O_MATCH;
            break;
        case 'e': {
            const char *eq = strchr(optarg, '=');
            size_t klen = eq ? (size_t)(eq - optarg) : 0;
            bool ok = klen > 0 && !(optarg[0] >= '0' && optarg[0] <= '9');
            for (size_t i = 0; ok && i < klen; i++)
                ok = (optarg[i] >= 'A' && optarg[i] <= 'Z') || (optarg[i] >= 'a' && optarg[i] <= 'z')
                     || (optarg[i] >= '0' && optarg[i] <= '9') || optarg[i] == '_';
            char term[256];
            if (!ok) {
                fprintf(stderr, "arbiter: %s: --env \"%s\": expected NAME=VALUE (NAME of A-Z a-z 0-9 _, not "
                        "starting with a digit)\n", cmd, arb_term(optarg, term, sizeof term));
                return CLI_EXIT_USAGE;
            }
            if (o->nenv == ARB_REMOTE_MAX_ENV) {
                fprintf(stderr, "arbiter: %s: more than %d --env\n", cmd, ARB_REMOTE_MAX_ENV);
                return CLI_EXIT_USAGE;
            }
            o->env[o->nenv++] = optarg;
            o->given |= O_ENV;
            break;
        }
        case 'F': {
            int k = snprintf(o->files + used, sizeof o->files - used, "%s%s", used ? " " : "", optarg);
            if (k < 0 || (size_t)k >= sizeof o->files - used || strpbrk(optarg, " \t")) {
                char term[256];
                fprintf(stderr, "arbiter: %s: --files %s: %s\n", cmd, arb_term(optarg, term, sizeof term),
                        strpbrk(optarg, " \t") ? "a file name with a blank" : "too many files");
                return CLI_EXIT_USAGE;
            }
            used += (size_t)k;
            o->given |= O_FILES;
            break;
        }
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    *first = optind;
    return -1;
}

/* The answer as JSON, or NULL after a message (the server said something
 * that is not the API's). */
static json_t *answer_json(const remote *r, const remote_reply *rep)
{
    json_error_t je;
    json_t *j = json_loadb(arb_buf_str(&rep->body), rep->body.len, JSON_REJECT_DUPLICATES, &je);
    if (!j || !json_is_object(j)) {
        char term[160];
        fprintf(stderr, "arbiter: %s: the server's answer is not the API's JSON (%s; Content-Type %s): is %s the "
                "arbiter server, or a proxy's page in its place?\n", r->cmd, j ? "not an object" : "does not parse",
                rep->ctype[0] ? arb_term(rep->ctype, term, sizeof term) : "none", r->server);
        json_decref(j);
        return NULL;
    }
    return j;
}

/* A field as text for a table: strings escaped for the terminal, numbers
 * as numbers, null or missing as "-". */
static const char *cell(json_t *o, const char *key, char *buf, size_t cap)
{
    json_t *v = json_object_get(o, key);
    if (json_is_string(v))
        return arb_term(json_string_value(v), buf, cap);
    if (json_is_integer(v))
        snprintf(buf, cap, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_real(v))
        snprintf(buf, cap, "%.2f", json_real_value(v));
    else if (json_is_true(v) || json_is_false(v))
        snprintf(buf, cap, "%s", json_is_true(v) ? "yes" : "no");
    else
        snprintf(buf, cap, "-");
    return buf;
}

/* --format json: the server's answer as it came (checked to be JSON, so
 * that a script never parses a proxy's error page). An exit code. */
static int print_json(const remote *r, const remote_reply *rep)
{
    json_t *j = answer_json(r, rep);
    if (!j)
        return CLI_EXIT_FAIL;
    json_decref(j);
    fwrite(rep->body.data, 1, rep->body.len, stdout);
    if (rep->body.data[rep->body.len - 1] != '\n')
        putchar('\n');
    return CLI_EXIT_OK;
}

/* A request whose answer is JSON: -1 with the answer in rep when 2xx,
 * else the exit code (said). */
static int call(remote *r, const char *method, const char *path, const char *ctype, const void *body, size_t len,
                remote_reply *rep)
{
    remote_reply_init(rep, ARB_REMOTE_REPLY_MAX, NULL);
    int rc = remote_request(r, method, path, ctype, body, len, rep);
    if (rc < 0 && (rep->status < 200 || rep->status >= 300))
        rc = remote_refused(r, rep);
    return rc;
}

/* The token file's path for a hint: absolute, so that the hint works from
 * any directory. */
static void hint_tail(const remote *r)
{
    char real[PATH_MAX];
    printf(" --server ");
    remote_shell_word(stdout, r->server);
    printf(" --token-file ");
    remote_shell_word(stdout, realpath(r->token_file, real) ? real : r->token_file);
    if (r->cacert) {
        printf(" --cacert ");
        remote_shell_word(stdout, realpath(r->cacert, real) ? real : r->cacert);
    }
}

/* ---- join and register: the bot's program packed here ------------------ */

/* A bare program name on this machine's PATH (as match_def's lookup). */
static bool on_path(const char *name)
{
    char both[8192], cand[4096];
    snprintf(both, sizeof both, "/usr/local/bin:/usr/bin:/bin:%s", getenv("PATH") ? getenv("PATH") : "");
    for (const char *p = both; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(cand, sizeof cand, "%.*s/%s", (int)n, p, name);
        if (n && cand[0] == '/' && access(cand, X_OK) == 0)
            return true;
        p += n + (p[n] == ':');
    }
    return false;
}

/* An archive by its name: what bundle_from_archive reads. */
static bool archive_name(const char *p)
{
    static const char *const ext[] = {".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.zst", ".zip"};
    size_t n = strlen(p);
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++)
        if (n > strlen(ext[i]) && strcmp(p + n - strlen(ext[i]), ext[i]) == 0)
            return true;
    return false;
}

/* A bot that is a directory or an archive (--files PATH, alone): the tree
 * packed whole (bundle_from_dir, bundle_from_archive: their limits and
 * refusals), and each word of the command said in the bundle's terms: a
 * path here that lies inside the directory as its path in it, a word the
 * bundle holds as it is. The program (the first word) must be a file of
 * the bundle that is executable, or a program named bare (python3). -1 to
 * go on, else an exit code (said). */
static int pack_tree(const char *cmd, const char *path, bool dir, const char *const *w, int nw, sched_packed *pk, char *sent,
                     size_t cap)
{
    char err[4200], term[512], t2[512], root[PATH_MAX] = "";
    int rc;
    if (dir) {
        if (!realpath(path, root)) {
            fprintf(stderr, "arbiter: %s: --files %s cannot be resolved\n", cmd, arb_term(path, term, sizeof term));
            return CLI_EXIT_USAGE;
        }
        rc = bundle_from_dir(root, &pk->bundle, &pk->len, pk->digest, err, sizeof err);
    } else {
        char *a = NULL;
        size_t alen = 0;
        rc = arb_read_file(path, ARB_BUNDLE_MAX_ARCHIVE, "a bot's archive", &a, &alen, err, sizeof err);
        if (rc == 0)
            rc = bundle_from_archive((const uint8_t *)a, alen, &pk->bundle, &pk->len, pk->digest, err, sizeof err);
        free(a);
    }
    if (rc) {
        fprintf(stderr, "arbiter: %s: --files %s: %s\n", cmd, arb_term(path, term, sizeof term),
                arb_term(err, t2, sizeof t2));
        return CLI_EXIT_USAGE;
    }
    size_t used = 0, rootlen = strlen(root);
    sent[0] = 0;
    for (int i = 0; i < nw; i++) {
        const char *word = w[i];
        char real[PATH_MAX];
        unsigned mode = 0;
        bool inside = false;
        /* a path from here into the directory: its path in the bundle */
        if (dir && (strchr(word, '/') || i > 0) && realpath(word, real) && strncmp(real, root, rootlen) == 0
            && real[rootlen] == '/') {
            word = real + rootlen + 1;
            inside = true;
        } else if (strncmp(word, "./", 2) == 0 && bundle_has(pk->bundle, pk->len, word + 2, NULL)) {
            word += 2;
        }
        inside = inside || bundle_has(pk->bundle, pk->len, word, &mode);
        if (i == 0 && inside && (!bundle_has(pk->bundle, pk->len, word, &mode) || !(mode & 0111))) {
            fprintf(stderr, "arbiter: %s: the program %s is not an executable file of %s (chmod +x it, or name its "
                    "interpreter first: python3 %s)\n", cmd, arb_term(word, term, sizeof term),
                    arb_term(path, t2, sizeof t2), term);
            return CLI_EXIT_USAGE;
        }
        if (i == 0 && !inside) {
            if (strchr(word, '/')) {
                fprintf(stderr, "arbiter: %s: the program %s is not in %s (the bot is that %s alone)\n", cmd,
                        arb_term(word, term, sizeof term), arb_term(path, t2, sizeof t2), dir ? "directory" : "archive");
                return CLI_EXIT_USAGE;
            }
            if (!on_path(word))
                fprintf(stderr, "arbiter: %s: note: %s is not on this machine's PATH; the server must have it (it "
                        "says so when it has not)\n", cmd, arb_term(word, term, sizeof term));
        }
        int n = snprintf(sent + used, cap - used, "%s%s", i ? " " : "", word);
        if (n < 0 || (size_t)n >= cap - used) {
            fprintf(stderr, "arbiter: %s: the command in the bundle's terms is longer than %zu bytes\n", cmd, cap - 1);
            return CLI_EXIT_USAGE;
        }
        used += (size_t)n;
    }
    return -1;
}

/* The entry's program packed (into *pk) and its command said in the
 * bundle's terms (into sent). -1 to go on, else an exit code (said). */
static int pack(const char *cmd, const opts *o, const char *name, sched_packed *pk, char *sent, size_t cap)
{
    char term[256], err[4200], dir[PATH_MAX];
    if (!o->command || !*o->command) {
        fprintf(stderr, "arbiter: %s: say what the entry runs (--command CMD)\n", cmd);
        return CLI_EXIT_USAGE;
    }
    const char *dot = strrchr(name, '.');
    bool versioned = dot && dot[1] == 'v' && dot[2] && strspn(dot + 2, "0123456789") == strlen(dot + 2);
    if (!arb_valid_name(name) || versioned) {
        fprintf(stderr, "arbiter: %s: \"%s\" is not a name for an entry (1 to %d of A-Z a-z 0-9 _ . -, not ending "
                "in .vN: versions are called so)\n", cmd, arb_term(name, term, sizeof term), ARB_MAX_BOT_NAME);
        return CLI_EXIT_USAGE;
    }
    if (strlen(o->command) >= ARB_TN_MAX_COMMAND) {
        fprintf(stderr, "arbiter: %s: --command is longer than %d bytes\n", cmd, ARB_TN_MAX_COMMAND - 1);
        return CLI_EXIT_USAGE;
    }
    if (!getcwd(dir, sizeof dir)) {
        fprintf(stderr, "arbiter: %s: the current directory cannot be named\n", cmd);
        return CLI_EXIT_FAIL;
    }
    /* The command's words as match_bot_command splits them. A program
     * named bare (python3) that this machine lacks is the server's to
     * find: packed in its place is one every machine has, never a file of
     * the bundle, so that the rest is packed as ever. */
    char words[ARB_TN_MAX_COMMAND], packed_cmd[ARB_TN_MAX_COMMAND + 16];
    snprintf(words, sizeof words, "%s", o->command);
    const char *w[ARB_MAX_BOT_ARGS + 1];
    int nw = 0;
    char *save = NULL;
    for (char *t = strtok_r(words, " \t", &save); t && nw <= ARB_MAX_BOT_ARGS; t = strtok_r(NULL, " \t", &save))
        w[nw++] = t;
    if (nw == 0) {
        fprintf(stderr, "arbiter: %s: --command is empty\n", cmd);
        return CLI_EXIT_USAGE;
    }
    /* one --files that is a directory or an archive: the bot is that tree */
    struct stat st;
    if (o->files[0] && !strchr(o->files, ' ') && stat(o->files, &st) == 0
        && (S_ISDIR(st.st_mode) || (S_ISREG(st.st_mode) && archive_name(o->files))))
        return pack_tree(cmd, o->files, S_ISDIR(st.st_mode), w, nw, pk, sent, cap);
    snprintf(packed_cmd, sizeof packed_cmd, "%s", o->command);
    if (!strchr(w[0], '/') && !on_path(w[0])) {
        fprintf(stderr, "arbiter: %s: note: %s is not on this machine's PATH; the server must have it (it says so "
                "when it has not)\n", cmd, arb_term(w[0], term, sizeof term));
        snprintf(packed_cmd, sizeof packed_cmd, "/bin/sh%s", o->command + strspn(o->command, " \t") + strlen(w[0]));
    }
    if (sched_program_pack(name, packed_cmd, o->files, dir, pk, err, sizeof err) != 0) {
        char t2[sizeof err];
        fprintf(stderr, "arbiter: %s: %s\n", cmd, arb_term(err, t2, sizeof t2));
        return CLI_EXIT_USAGE;
    }
    size_t used = 0;
    sent[0] = 0;
    for (int i = 0; i < nw; i++) {
        const char *word = w[i];
        for (int k = 0; k < pk->nargs; k++)
            if (pk->argi[k] == i)
                word = pk->rel[k];
        int n = snprintf(sent + used, cap - used, "%s%s", i ? " " : "", word);
        if (n < 0 || (size_t)n >= cap - used) {
            fprintf(stderr, "arbiter: %s: the command in the bundle's terms is longer than %zu bytes\n", cmd, cap - 1);
            return CLI_EXIT_USAGE;
        }
        used += (size_t)n;
    }
    return -1;
}

/* POST the packed program to path (…/entries or …/registrations). */
static int upload(remote *r, const opts *o, const char *where, const char *route, const char *name, bool registering)
{
    sched_packed *pk = calloc(1, sizeof *pk);
    arb_buf path;
    arb_buf_init(&path, 16384);
    remote_reply rep;
    remote_reply_init(&rep, ARB_REMOTE_REPLY_MAX, NULL);
    json_t *j = NULL;
    char sent[ARB_TN_MAX_COMMAND], term[256], t2[256];
    int rc = pk ? pack(r->cmd, o, name, pk, sent, sizeof sent) : CLI_EXIT_FAIL;
    if (rc >= 0)
        goto out;
    if (pk->len == 0) {
        fprintf(stderr, "arbiter: %s: the command names no file of its own (a script, a program here): an entry "
                "on a server brings its program; name it (python3 mybot.py) or give --files\n", r->cmd);
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    int bad = arb_buf_puts(&path, route) || remote_escape(r, &path, where)
              || arb_buf_puts(&path, registering ? "/registrations?name=" : "/entries?name=")
              || remote_escape(r, &path, name) || arb_buf_puts(&path, "&command=") || remote_escape(r, &path, sent);
    if (o->replace)
        bad |= arb_buf_puts(&path, "&replace=1");
    if (o->startup_ms > 0)
        bad |= arb_buf_printf(&path, "&startup_ms=%lld", o->startup_ms);
    for (int i = 0; i < o->nenv; i++)
        bad |= arb_buf_puts(&path, "&env=") || remote_escape(r, &path, o->env[i]);
    if (bad) {
        fprintf(stderr, "arbiter: %s: the request is too long\n", r->cmd);
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    remote_reply_release(&rep);
    rc = call(r, "POST", arb_buf_str(&path), "application/x-arbiter-bundle", pk->bundle, pk->len, &rep);
    if (rc >= 0)
        goto out;
    rc = CLI_EXIT_OK;
    if (o->format == CLI_FORMAT_JSON) {
        rc = print_json(r, &rep);
        goto out;
    }
    if (!(j = answer_json(r, &rep))) {
        rc = CLI_EXIT_FAIL;
        goto out;
    }
    const char *digest = json_string_value(json_object_get(j, "digest"));
    char entry[256], version[32], status[64], url[512];
    cell(j, "entry", entry, sizeof entry);
    cell(j, "version", version, sizeof version);
    cell(j, "status", status, sizeof status);
    printf("%s %s %s as version %s (%s)%s\n", entry, registering ? "registered in" : "joined",
           arb_term(where, term, sizeof term), version, status,
           o->replace && strcmp(version, "1") != 0 ? "; it replaces the version before once validated" : "");
    printf("program %s: %zu bytes uploaded; command: %s\n", digest ? arb_term(digest, t2, sizeof t2) : "-", pk->len,
           arb_term(sent, term, sizeof term));
    if ((!digest || strcmp(digest, pk->digest) != 0)) {
        fprintf(stderr, "arbiter: %s: the server names the program %s, not %s as packed here: the bytes changed on "
                "the way\n", r->cmd, digest ? arb_term(digest, t2, sizeof t2) : "(nothing)", pk->digest);
        rc = CLI_EXIT_FAIL;
    }
    cell(j, "url", url, sizeof url);
    if (url[0] == '/' && strncmp(url, "/api/", 5) != 0)   /* a page, not the API's own address */
        printf("its page: %s%s\n", r->base, url);
    printf("it plays a validation match first; its verdict:\n  arbiter remote entries");
    hint_tail(r);
    printf("\n");
out:
    json_decref(j);
    remote_reply_release(&rep);
    arb_buf_release(&path);
    if (pk)
        free(pk->bundle);
    free(pk);
    return rc;
}

/* ---- the other subcommands ------------------------------------------------ */

static int me(remote *r, const opts *o)
{
    remote_reply rep;
    json_t *j = NULL;
    int rc = call(r, "GET", "/api/v1/me", NULL, NULL, 0, &rep);
    if (rc < 0 && o->format == CLI_FORMAT_JSON) {
        rc = print_json(r, &rep);
    } else if (rc < 0 && !(j = answer_json(r, &rep))) {
        rc = CLI_EXIT_FAIL;
    } else if (rc < 0) {
        char a[256], role[64], b[6][32];
        printf("account %s (%s)\n", cell(j, "account", a, sizeof a), cell(j, "role", role, sizeof role));
        json_t *q = json_object_get(j, "quota");
        if (json_is_object(q))
            printf("today: %s of %s uploads, %s of %s bytes; entries validating or active: %s of %s a ladder\n",
                   cell(q, "uploads_today", b[0], 32), cell(q, "uploads_per_day", b[1], 32),
                   cell(q, "bytes_today", b[2], 32), cell(q, "bytes_per_day", b[3], 32), cell(q, "entries", b[4], 32),
                   cell(q, "entries_max", b[5], 32));
        rc = CLI_EXIT_OK;
    }
    json_decref(j);
    remote_reply_release(&rep);
    return rc;
}

/* A rating object as one short cell: the conservative figure when given,
 * else mu. */
static const char *rating_cell(json_t *rating, char *buf, size_t cap)
{
    static const char *const keys[] = {"conservative", "display", "rating", "mu"};
    snprintf(buf, cap, "-");
    if (!json_is_object(rating))
        return buf;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        json_t *v = json_object_get(rating, keys[i]);
        if (json_is_number(v)) {
            snprintf(buf, cap, "%.1f", json_number_value(v));
            break;
        }
    }
    return buf;
}

static int entries(remote *r, const opts *o)
{
    remote_reply rep;
    json_t *j = NULL;
    int rc = call(r, "GET", o->all ? "/api/v1/entries?all=1" : "/api/v1/entries", NULL, NULL, 0, &rep);
    if (rc < 0 && o->format == CLI_FORMAT_JSON) {
        rc = print_json(r, &rep);
        return remote_reply_release(&rep), rc;
    }
    if (rc < 0 && !(j = answer_json(r, &rep)))
        rc = CLI_EXIT_FAIL;
    if (rc >= 0)
        goto out;
    json_t *list = json_object_get(j, "entries");
    size_t n = json_array_size(list);
    if (n == 0) {
        printf("(no entries yet: arbiter join LADDER NAME --command CMD)\n");
    } else {
        printf("%-16s %-24s %-10s %7s %8s  %-10s %s\n", "ladder", "entry", "status", "matches", "rating", "joined",
               "verdict");
        for (size_t i = 0; i < n; i++) {
            json_t *e = json_array_get(list, i);
            char l[256], en[256], st[64], m[32], rt[32], jd[64], v[1024];
            cell(e, "joined_at", jd, sizeof jd);
            jd[strcspn(jd, "T")] = 0;   /* the date of an ISO 8601 time */
            printf("%-16s %-24s %-10s %7s %8s  %-10s %s\n", cell(e, "ladder", l, sizeof l), cell(e, "entry", en, sizeof en),
                   cell(e, "status", st, sizeof st), cell(e, "matches", m, sizeof m),
                   rating_cell(json_object_get(e, "rating"), rt, sizeof rt), jd, cell(e, "verdict", v, sizeof v));
        }
    }
    rc = CLI_EXIT_OK;
out:
    json_decref(j);
    remote_reply_release(&rep);
    return rc;
}

/* path = /api/v1/ladders/L/entries/E + tail */
static int entry_path(remote *r, arb_buf *path, const char *ladder, const char *entry, const char *tail)
{
    return arb_buf_puts(path, "/api/v1/ladders/") || remote_escape(r, path, ladder)
           || arb_buf_puts(path, "/entries/") || remote_escape(r, path, entry) || arb_buf_puts(path, tail);
}

static int logs(remote *r, const opts *o, const char *ladder, const char *entry)
{
    arb_buf path;
    arb_buf_init(&path, 4096);
    remote_reply rep;
    remote_reply_init(&rep, 1, NULL);
    json_t *j = NULL;
    int rc = CLI_EXIT_USAGE;
    if (entry_path(r, &path, ladder, entry, "/logs")
        || (o->match > 0 && arb_buf_printf(&path, "?match=%" PRId64, o->match))) {
        fprintf(stderr, "arbiter: %s: the ladder's or the entry's name is too long\n", r->cmd);
        goto out;
    }
    remote_reply_release(&rep);
    rc = call(r, "GET", arb_buf_str(&path), NULL, NULL, 0, &rep);
    if (rc < 0 && o->format == CLI_FORMAT_JSON) {
        rc = print_json(r, &rep);
        goto out;
    }
    if (rc < 0 && !(j = answer_json(r, &rep)))
        rc = CLI_EXIT_FAIL;
    if (rc >= 0)
        goto out;
    json_t *ms = json_object_get(j, "matches");
    char en[256], id[32], role[64], seat[32];
    cell(j, "entry", en, sizeof en);
    if (json_array_size(ms) == 0)
        printf("%s has played no match yet%s\n", en, o->match > 0 ? " by that id" : "");
    for (size_t i = 0; i < json_array_size(ms); i++) {
        json_t *m = json_array_get(ms, i), *bots = json_object_get(m, "bots");
        printf("%s--- match %s (%s)\n", i ? "\n" : "", cell(m, "match", id, sizeof id), cell(m, "role", role, sizeof role));
        for (size_t k = 0; k < json_array_size(bots); k++) {
            json_t *b = json_array_get(bots, k);
            const char *se = json_string_value(json_object_get(b, "stderr"));
            char ended[1024];
            printf("  seat %s: %s\n", cell(b, "seat", seat, sizeof seat), cell(b, "ended", ended, sizeof ended));
            if (!se || !*se) {
                printf("    (no stderr)\n");
                continue;
            }
            /* each line escaped for the terminal, indented */
            size_t len = strlen(se), cap = len * 4 + 16;
            char *t = malloc(cap);
            if (!t) {
                rc = CLI_EXIT_FAIL;
                goto out;
            }
            arb_escape_term(se, len, t, cap, ARB_TERM_KEEP_NL);
            for (char *line = t, *nl; *line; line = nl ? nl + 1 : line + strlen(line)) {
                nl = strchr(line, '\n');
                printf("    | %.*s\n", (int)(nl ? nl - line : (ptrdiff_t)strlen(line)), line);
                if (!nl)
                    break;
            }
            free(t);
        }
    }
    rc = CLI_EXIT_OK;
out:
    json_decref(j);
    remote_reply_release(&rep);
    arb_buf_release(&path);
    return rc;
}

static int retire(remote *r, const opts *o, const char *ladder, const char *entry)
{
    arb_buf path;
    arb_buf_init(&path, 4096);
    remote_reply rep;
    remote_reply_init(&rep, 1, NULL);
    json_t *j = NULL;
    int rc = CLI_EXIT_USAGE;
    if (entry_path(r, &path, ladder, entry, "/retire")) {
        fprintf(stderr, "arbiter: %s: the ladder's or the entry's name is too long\n", r->cmd);
        goto out;
    }
    remote_reply_release(&rep);
    rc = call(r, "POST", arb_buf_str(&path), NULL, NULL, 0, &rep);
    if (rc < 0 && o->format == CLI_FORMAT_JSON) {
        rc = print_json(r, &rep);
    } else if (rc < 0 && !(j = answer_json(r, &rep))) {
        rc = CLI_EXIT_FAIL;
    } else if (rc < 0) {
        char en[256], st[64];
        printf("%s: %s (it plays no new match)\n", cell(j, "entry", en, sizeof en), cell(j, "status", st, sizeof st));
        rc = CLI_EXIT_OK;
    }
out:
    json_decref(j);
    remote_reply_release(&rep);
    arb_buf_release(&path);
    return rc;
}

static int dispute(remote *r, const opts *o, int64_t match)
{
    if (!o->reason || !*o->reason) {
        fprintf(stderr, "arbiter: %s: say why (--reason TEXT)\n", r->cmd);
        return CLI_EXIT_USAGE;
    }
    if (strlen(o->reason) > ARB_REMOTE_MAX_REASON) {
        fprintf(stderr, "arbiter: %s: --reason is longer than %d bytes\n", r->cmd, ARB_REMOTE_MAX_REASON);
        return CLI_EXIT_USAGE;
    }
    json_t *body = json_pack("{s:I,s:s}", "match", (json_int_t)match, "reason", o->reason);
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    if (!text) {
        fprintf(stderr, "arbiter: %s: --reason is not UTF-8 text\n", r->cmd);
        return CLI_EXIT_USAGE;
    }
    remote_reply rep;
    json_t *j = NULL;
    int rc = call(r, "POST", "/api/v1/disputes", "application/json", text, strlen(text), &rep);
    free(text);
    if (rc < 0 && o->format == CLI_FORMAT_JSON) {
        rc = print_json(r, &rep);
    } else if (rc < 0 && !(j = answer_json(r, &rep))) {
        rc = CLI_EXIT_FAIL;
    } else if (rc < 0) {
        char d[32], st[64];
        printf("dispute %s about match %" PRId64 ": %s (the arbiters resolve it)\n", cell(j, "dispute", d, sizeof d),
               match, cell(j, "state", st, sizeof st));
        rc = CLI_EXIT_OK;
    }
    json_decref(j);
    remote_reply_release(&rep);
    return rc;
}

/* The transcript as it comes: to stdout, or to a fresh file renamed over
 * FILE when whole (common/arb_file_write.c), removed when not. */
static int transcript(remote *r, const opts *o, int64_t match)
{
    char path[64], err[1024];
    snprintf(path, sizeof path, "/api/v1/matches/%" PRId64 "/transcript", match);
    arb_out out;
    FILE *f = stdout;
    if (o->output && !(f = arb_out_fopen(&out, o->output, 0600, err, sizeof err))) {
        fprintf(stderr, "arbiter: %s: %s\n", r->cmd, err);
        return CLI_EXIT_USAGE;
    }
    remote_reply rep;
    remote_reply_init(&rep, ARB_WEB_TRANSCRIPT_CAP, f);
    int rc = remote_request(r, "GET", path, NULL, NULL, 0, &rep);
    if (rc < 0 && (rep.status < 200 || rep.status >= 300))
        rc = remote_refused(r, &rep);
    if (rc < 0)
        rc = CLI_EXIT_OK;
    if (o->output) {
        if (rc == CLI_EXIT_OK && arb_out_commit(&out, err, sizeof err) != 0) {
            fprintf(stderr, "arbiter: %s: %s\n", r->cmd, err);
            rc = CLI_EXIT_FAIL;
        } else if (rc != CLI_EXIT_OK) {
            arb_out_abort(&out);
        } else if (o->format != CLI_FORMAT_JSON) {
            char term[512];
            fprintf(stderr, "match %" PRId64 ": %zu bytes of transcript in %s\n", match, rep.written,
                    arb_term(o->output, term, sizeof term));
        }
    } else if (fflush(stdout) != 0) {
        rc = CLI_EXIT_FAIL;
    }
    remote_reply_release(&rep);
    return rc;
}

/* ---- the commands ---------------------------------------------------------- */

int cmd_join(int argc, char **argv)
{
    opts o;
    int first;
    int rc = parse("join", argc, argv, &o, &first, join_usage);
    if (rc >= 0)
        return rc;
    if (argc - first != 2) {
        fprintf(stderr, "arbiter: join: expected LADDER NAME\n");
        join_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (o.given & (O_MATCH | O_ALL | O_REASON | O_OUTPUT)) {
        fprintf(stderr, "arbiter: join: --match, --all, --reason and -o are for arbiter remote\n");
        return CLI_EXIT_USAGE;
    }
    remote r;
    if ((rc = remote_open(&r, "join", o.server, o.token_file, o.cacert)) >= 0)
        return rc;
    r.timeout_s = (long)o.timeout_s;
    rc = upload(&r, &o, argv[first], "/api/v1/ladders/", argv[first + 1], false);
    remote_close(&r);
    return rc;
}

int cmd_remote(int argc, char **argv)
{
    int rc = cli_sub_help(argc, argv, remote_usage);
    if (rc >= 0)
        return rc;
    static const struct {
        const char *name, *operands;
        int args;
        unsigned takes;
    } subs[] = {
        {"me", "", 0, 0},
        {"entries", "", 0, O_ALL},
        {"logs", "LADDER ENTRY", 2, O_MATCH},
        {"retire", "LADDER ENTRY", 2, 0},
        {"dispute", "MATCH", 1, O_REASON},
        {"transcript", "MATCH", 1, O_OUTPUT},
        {"register", "TOURNAMENT NAME", 2, O_COMMAND | O_FILES | O_STARTUP | O_ENV},
    };
    const char *sub = argv[1];
    size_t i = 0;
    while (i < sizeof subs / sizeof *subs && strcmp(sub, subs[i].name) != 0)
        i++;
    if (i == sizeof subs / sizeof *subs) {
        fprintf(stderr, "arbiter: remote: no subcommand \"%s\" (me, entries, logs, retire, dispute, transcript, "
                "register)\n", sub);
        return CLI_EXIT_USAGE;
    }
    char cmd[64];
    snprintf(cmd, sizeof cmd, "remote %s", sub);
    opts o;
    int first;
    if ((rc = parse(cmd, argc - 1, argv + 1, &o, &first, remote_usage)) >= 0)
        return rc;
    int npos = argc - 1 - first;
    char **pos = argv + 1 + first;
    if (npos != subs[i].args) {
        fprintf(stderr, "arbiter: %s: expected %s\n", cmd, subs[i].args ? subs[i].operands : "no operand");
        remote_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (o.given & ~subs[i].takes) {
        fprintf(stderr, "arbiter: %s: an option it does not take (arbiter remote --help)\n", cmd);
        return CLI_EXIT_USAGE;
    }
    int64_t match = 0;
    if ((i == 4 || i == 5) && cli_match_id(cmd, "MATCH", pos[0], &match))
        return CLI_EXIT_USAGE;
    remote r;
    if ((rc = remote_open(&r, cmd, o.server, o.token_file, o.cacert)) >= 0)
        return rc;
    r.timeout_s = (long)o.timeout_s;
    switch (i) {
    case 0: rc = me(&r, &o); break;
    case 1: rc = entries(&r, &o); break;
    case 2: rc = logs(&r, &o, pos[0], pos[1]); break;
    case 3: rc = retire(&r, &o, pos[0], pos[1]); break;
    case 4: rc = dispute(&r, &o, match); break;
    case 5: rc = transcript(&r, &o, match); break;
    default: rc = upload(&r, &o, pos[0], "/api/v1/tournaments/", pos[1], true); break;
    }
    remote_close(&r);
    return rc;
}
