/* cmd_account.c — `arbiter account`: the people who use the participant
 * API (docs/api.md). add makes an account with a role and prints its
 * token once, as the last line of its output (the record keeps only its
 * SHA-256); list shows them; revoke refuses the token from now on; rotate
 * gives a new token, the old one refused at once. Every change is in the
 * record's audit log as "cli:USER". */
#include "cli.h"
#include "arb_error.h"
#include "arb_text.h"
#include "store.h"

#include <getopt.h>
#include <pwd.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: arbiter account add NAME --role participant|arbiter|organiser\n"
            "                   [--uploads-per-day N] [--bytes-per-day N] [--entries N]\n"
            "       arbiter account list [--format table|json]\n"
            "       arbiter account revoke NAME\n"
            "       arbiter account rotate NAME\n"
            "       (each with [--state DIR | --db CONNINFO])\n\n"
            "Accounts of the participant API (docs/api.md): a participant joins ladders and\n"
            "reads its own entries' logs; an arbiter also reads every entry's and resolves\n"
            "disputes; an organiser also submits tournaments. NAME: 1-64 of a-z 0-9 _ -.\n"
            "add and rotate print the account's token once, as the last line: keep it;\n"
            "the record holds only its SHA-256. revoke refuses the token from now on;\n"
            "rotate gives a new one and refuses the old at once. Quotas default to\n"
            "ARB_API_UPLOADS_PER_DAY (%d), ARB_API_BYTES_PER_DAY (%lld) and\n"
            "ARB_API_ENTRIES_PER_LADDER (%d).\n",
            ARB_API_UPLOADS_PER_DAY, (long long)ARB_API_BYTES_PER_DAY, ARB_API_ENTRIES_PER_LADDER);
}

typedef struct opts {
    const char *state, *db, *role;
    store_quota quota;
    cli_format format;
} opts;

static int parse(int argc, char **argv, opts *o, int *first)
{
    static const struct option lo[] = {
        {"help", no_argument, NULL, 'h'},           {"state", required_argument, NULL, 's'},
        {"db", required_argument, NULL, 'd'},       {"role", required_argument, NULL, 'r'},
        {"uploads-per-day", required_argument, NULL, 'u'}, {"bytes-per-day", required_argument, NULL, 'b'},
        {"entries", required_argument, NULL, 'e'},  {"format", required_argument, NULL, 'f'},
        {NULL, 0, NULL, 0},
    };
    *o = (opts){.state = "arbiter-state", .quota = {0, -1, 0, -1, 0, -1}, .format = CLI_FORMAT_TABLE};
    int opt;
    long long v;
    cli_opts_begin();
    while ((opt = cli_getopt("account", argc, argv, ":h", lo)) != -1) {
        switch (opt) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 's': o->state = optarg; break;
        case 'd': o->db = optarg; break;
        case 'r': o->role = optarg; break;
        case 'u':
            if (cli_int_arg("account", "--uploads-per-day", optarg, 0, 1000000, &v))
                return CLI_EXIT_USAGE;
            o->quota.uploads_per_day = v;
            break;
        case 'b':
            if (cli_int_arg("account", "--bytes-per-day", optarg, 0, 1LL << 50, &v))
                return CLI_EXIT_USAGE;
            o->quota.bytes_per_day = v;
            break;
        case 'e':
            if (cli_int_arg("account", "--entries", optarg, 0, ARB_LADDER_MAX_ENTRIES, &v))
                return CLI_EXIT_USAGE;
            o->quota.entries_max = v;
            break;
        case 'f':
            if (cli_format_parse("account", optarg, CLI_FORMATS_TJ, &o->format))
                return CLI_EXIT_USAGE;
            break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    *first = optind;
    return -1;
}

static const char *who(char *buf, size_t len)
{
    struct passwd *pw = getpwuid(getuid());
    snprintf(buf, len, "cli:%s", pw ? pw->pw_name : "unknown");
    return buf;
}

static void print_token(const char *name, const char *token, bool rotated)
{
    printf("account %s: %s; its token (shown once, keep it: the record holds only its hash):\n", name,
           rotated ? "new token, the old one is refused from now on" : "added");
    printf("%s\n", token);
    fflush(stdout);
}

static int list(store *st, cli_format format)
{
    store_rows r;
    char err[512];
    if (store_account_list(st, &r, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: account list: %s\n", err);
        return CLI_EXIT_FAIL;
    }
    if (format == CLI_FORMAT_JSON) {
        printf("{\"accounts\":[");
        for (int i = 0; i < r.nrows; i++) {
            printf("%s{\"name\":", i ? "," : "");
            cli_json_string(stdout, store_cell(&r, i, 0));
            printf(",\"role\":");
            cli_json_string(stdout, store_cell(&r, i, 1));
            printf(",\"created\":");
            cli_json_string(stdout, store_cell(&r, i, 2));
            for (int k = 3; k <= 4; k++) {
                printf(",\"%s\":", k == 3 ? "last_used" : "revoked");
                if (store_cell(&r, i, k)[0])
                    cli_json_string(stdout, store_cell(&r, i, k));
                else
                    printf("null");
            }
            static const char *const qn[] = {"uploads_per_day", "bytes_per_day", "entries"};
            for (int k = 5; k <= 7; k++)
                printf(",\"%s\":%s", qn[k - 5], store_cell(&r, i, k)[0] ? store_cell(&r, i, k) : "null");
            printf("}");
        }
        printf("]}\n");
    } else {
        printf("%-20s %-12s %-21s %-21s %s\n", "NAME", "ROLE", "CREATED", "LAST USED", "REVOKED");
        for (int i = 0; i < r.nrows; i++)
            printf("%-20s %-12s %-21s %-21s %s\n", store_cell(&r, i, 0), store_cell(&r, i, 1), store_cell(&r, i, 2),
                   store_cell(&r, i, 3)[0] ? store_cell(&r, i, 3) : "never",
                   store_cell(&r, i, 4)[0] ? store_cell(&r, i, 4) : "-");
    }
    store_rows_release(&r);
    return CLI_EXIT_OK;
}

int cmd_account(int argc, char **argv)
{
    int rc = cli_sub_help(argc, argv, usage);
    if (rc >= 0)
        return rc;
    const char *sub = argv[1];
    opts o;
    int first;
    rc = parse(argc - 1, argv + 1, &o, &first);
    if (rc >= 0)
        return rc;
    int npos = argc - 1 - first;
    char **pos = argv + 1 + first;
    char term[160];
    int kind = strcmp(sub, "add") == 0 ? 0 : strcmp(sub, "list") == 0 ? 1 : strcmp(sub, "revoke") == 0 ? 2
             : strcmp(sub, "rotate") == 0 ? 3 : -1;
    if (kind < 0) {
        fprintf(stderr, "arbiter: account: no subcommand \"%s\" (add, list, revoke, rotate)\n",
                arb_term(sub, term, sizeof term));
        return CLI_EXIT_USAGE;
    }
    if (npos != (kind == 1 ? 0 : 1)) {
        fprintf(stderr, "arbiter: account %s: expected %s\n", sub, kind == 1 ? "no operand" : "NAME");
        return CLI_EXIT_USAGE;
    }
    if (kind != 1 && !store_account_name_ok(pos[0])) {
        fprintf(stderr, "arbiter: account %s: NAME \"%s\": 1-%d of a-z 0-9 _ -, a letter or digit first\n", sub,
                arb_term(pos[0], term, sizeof term), ARB_ACCOUNT_MAX_NAME);
        return CLI_EXIT_USAGE;
    }
    store_role role = STORE_PARTICIPANT;
    if (kind == 0 && store_role_parse(o.role, &role) != 0) {
        fprintf(stderr, "arbiter: account add: --role participant, arbiter or organiser is needed\n");
        return CLI_EXIT_USAGE;
    }
    if (kind != 0 && (o.role || o.quota.uploads_per_day >= 0 || o.quota.bytes_per_day >= 0 || o.quota.entries_max >= 0)) {
        fprintf(stderr, "arbiter: account %s: --role and the quotas are for add\n", sub);
        return CLI_EXIT_USAGE;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "arbiter: account: libsodium cannot start\n");
        return CLI_EXIT_FAIL;
    }
    char err[1024];
    db_place place;
    rc = kind == 1 ? cli_open_record(&place, o.state, o.db, err, sizeof err)
                   : cli_open_place(&place, o.state, o.db, false, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: %s\n", err);
        return rc == ARB_ENOTFOUND ? CLI_EXIT_NORECORD : CLI_EXIT_USAGE;
    }
    store *st = store_open(place.conninfo, err, sizeof err);
    if (!st || store_migrate(st, err, sizeof err) != 0) {
        if (!st)
            cli_say_unreachable("account", err);
        else
            fprintf(stderr, "arbiter: account: %s\n", err);
        store_close(st);
        cli_close_place(&place);
        return CLI_EXIT_USAGE;
    }
    char me[160], token[STORE_TOKEN_LEN + 1], hash[65];
    int status = CLI_EXIT_OK;
    if (kind == 0 || kind == 3) {
        store_token_new(token);
        store_token_hash(token, hash);
    }
    switch (kind) {
    case 0:
        rc = store_account_add(st, pos[0], role, &o.quota, hash, who(me, sizeof me), err, sizeof err);
        if (rc == 0)
            print_token(pos[0], token, false);
        else {
            fprintf(stderr, "arbiter: account add: %s\n", err);
            status = rc == ARB_EEXIST ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
        }
        break;
    case 1: status = list(st, o.format); break;
    case 2:
    case 3:
        rc = kind == 2 ? store_account_revoke(st, pos[0], who(me, sizeof me), err, sizeof err)
                       : store_account_rotate(st, pos[0], hash, who(me, sizeof me), err, sizeof err);
        if (rc == 1 && kind == 2)
            printf("account %s: revoked (its token is refused from now on)\n", pos[0]);
        else if (rc == 1)
            print_token(pos[0], token, true);
        else if (rc == 0) {
            fprintf(stderr, "arbiter: account %s: no account \"%s\"%s\n", sub, pos[0], " that is not revoked");
            status = CLI_EXIT_NORECORD;
        } else {
            fprintf(stderr, "arbiter: account %s: %s\n", sub, err);
            status = CLI_EXIT_FAIL;
        }
        break;
    }
    sodium_memzero(token, sizeof token);
    store_close(st);
    cli_close_place(&place);
    return status;
}
