/* cmd_register.c — `arbiter register`: an entrant into an open
 * tournament's registration from this host (the local counterpart of
 * POST /api/v1/tournaments/T/registrations; schemas/tournament.md,
 * "Registration"). The program is packed here from the command's files
 * and --files, and the record keeps the bundle: the tournament plays it
 * from the record when it starts, never these files. `--list` shows the
 * registrations so far. */
#include "cli.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_names.h"
#include "arb_text.h"
#include "scheduler.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: arbiter register TOURNAMENT NAME --command CMD [--files FILE]...\n"
            "       arbiter register TOURNAMENT --list\n"
            "       (each with [--state DIR | --db CONNINFO])\n\n"
            "Registers entrant NAME running CMD (paths relative to this directory; --files: more\n"
            "files of the program) in TOURNAMENT (NAME or #ID), whose file has a registration:\n"
            "block, before its deadline. The program is packed now and kept in the record: the\n"
            "tournament plays it from there when registration closes. --list: the registrations.\n"
            "Exit 0 registered, 2 refused (closed, full, name taken, a command that does not start),\n"
            "3 no such tournament.\n");
}

/* The entrant's program packed as `arbiter join` packs it
 * (sched_program_pack), as the record keeps a registration's: the bundle
 * and where its files go in the command. A command that names no file of
 * its own is refused: a registration plays an uploaded program, never the
 * host's. */
static int pack_registration(const char *name, const char *command, const char *files, const char *dir,
                             uint8_t **bundle, size_t *len, store_entrant_prog *prog, char *err, size_t errlen)
{
    sched_packed *p = calloc(1, sizeof *p);
    if (!p)
        return ARB_ENOMEM;
    int rc = sched_program_pack(name, command, files, dir, p, err, errlen);
    if (!rc && (!p->bundle || p->nargs == 0)) {
        snprintf(err, errlen, "the command \"%s\" names no file of its own: a registration uploads its program",
                 command);
        rc = ARB_EINVAL;
    }
    if (!rc) {
        *bundle = p->bundle;
        p->bundle = NULL;
        *len = p->len;
        snprintf(prog->digest, sizeof prog->digest, "%s", p->digest);
        prog->nfiles = p->nargs;
        for (int i = 0; i < p->nargs; i++) {
            prog->argi[i] = p->argi[i];
            snprintf(prog->path[i], sizeof prog->path[i], "%s", p->rel[i]);
        }
    }
    free(p->bundle);
    free(p);
    return rc;
}


int cmd_register(int argc, char **argv)
{
    static const struct option lo[] = {
        {"help", no_argument, NULL, 'h'},     {"state", required_argument, NULL, 's'},
        {"db", required_argument, NULL, 'd'}, {"command", required_argument, NULL, 'c'},
        {"files", required_argument, NULL, 'F'}, {"list", no_argument, NULL, 'l'},
        {NULL, 0, NULL, 0},
    };
    const char *state = "arbiter-state", *db = NULL, *command = NULL;
    char files[ARB_TN_MAX_COMMAND] = "";
    size_t used = 0;
    bool list = false;
    int opt;
    cli_opts_begin();
    while ((opt = cli_getopt("register", argc, argv, ":h", lo)) != -1) {
        switch (opt) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 's': state = optarg; break;
        case 'd': db = optarg; break;
        case 'c': command = optarg; break;
        case 'l': list = true; break;
        case 'F': {
            int k = snprintf(files + used, sizeof files - used, "%s%s", used ? " " : "", optarg);
            if (k < 0 || (size_t)k >= sizeof files - used || strchr(optarg, ' ')) {
                fprintf(stderr, "arbiter: register: --files %s: %s\n", optarg,
                        strchr(optarg, ' ') ? "a file name with a space" : "too many files");
                return CLI_EXIT_USAGE;
            }
            used += (size_t)k;
            break;
        }
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind != (list ? 1 : 2)) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *tname = argv[optind], *name = list ? "" : argv[optind + 1];
    char err[2048], term[256], dir[4096];
    uint8_t *bundle = NULL;
    size_t len = 0;
    store_entrant_prog *prog = calloc(1, sizeof *prog);
    if (!prog)
        return CLI_EXIT_FAIL;
    int status = CLI_EXIT_USAGE;
    if (!list) {
        if (!command || !*command || strlen(command) >= ARB_TN_MAX_COMMAND) {
            fprintf(stderr, "arbiter: register: say what the entrant runs (--command CMD, under %d bytes)\n",
                    ARB_TN_MAX_COMMAND);
            goto out;
        }
        if (!arb_valid_name(name)) {
            fprintf(stderr, "arbiter: register: \"%s\" is not a name for an entrant (1 to %d of A-Z a-z 0-9 _ . -)\n",
                    arb_term(name, term, sizeof term), ARB_MAX_BOT_NAME);
            goto out;
        }
        /* packed before the record is opened: a command that does not
         * start is refused here */
        if (!getcwd(dir, sizeof dir)
            || pack_registration(name, command, files, dir, &bundle, &len, prog, err, sizeof err) != 0) {
            fprintf(stderr, "arbiter: register: %s\n", getcwd(dir, sizeof dir) ? err : "the current directory cannot be named");
            goto out;
        }
    }
    db_place place;
    int rc = cli_open_record(&place, state, db, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: %s\n", err);
        status = rc == ARB_ENOTFOUND ? CLI_EXIT_NORECORD : CLI_EXIT_USAGE;
        goto out;
    }
    store *st = store_open(place.conninfo, err, sizeof err);
    if (!st) {
        cli_say_unreachable("register", err);
        cli_close_place(&place);
        goto out;
    }
    int ready = cli_record_ready("register", st, &place);
    if (ready >= 0) {
        status = ready;
        goto close;
    }
    int64_t tid;
    uint64_t seed;
    bool revealed;
    if (store_tournament_named(st, tname, &tid, &seed, &revealed) != 1) {
        fprintf(stderr, "arbiter: register: no tournament %s \"%s\" in the record\n",
                tname[0] == '#' ? "of id" : "named", arb_term(tname, term, sizeof term));
        status = CLI_EXIT_NORECORD;
        goto close;
    }
    if (list) {
        store_rows r;
        if (store_registrations(st, tid, &r, err, sizeof err) != 0) {
            fprintf(stderr, "arbiter: register: %s\n", err);
            status = CLI_EXIT_FAIL;
            goto close;
        }
        printf("%-6s %-32s %-16s %-20s %-8s %s\n", "id", "name", "account", "registered", "entrant", "program");
        for (int i = 0; i < r.nrows; i++) {
            char a[128], b[128];
            printf("%-6s %-32s %-16s %-20s %-8s %.12s\n", store_cell(&r, i, 0),
                   arb_term(store_cell(&r, i, 1), a, sizeof a), arb_term(store_cell(&r, i, 2), b, sizeof b),
                   store_cell(&r, i, 4), store_cell(&r, i, 5)[0] ? store_cell(&r, i, 5) : "-", store_cell(&r, i, 3));
        }
        store_rows_release(&r);
        status = CLI_EXIT_OK;
        goto close;
    }
    int64_t id;
    store_registration_in in = {.name = name, .command = command, .bundle = bundle, .len = len, .prog = prog};
    rc = store_registration_add(st, tid, &in, &id, err, sizeof err);
    if (rc) {
        fprintf(stderr, "arbiter: register: %s\n", err);
        status = rc == ARB_ENOTFOUND ? CLI_EXIT_NORECORD : rc == ARB_EIO ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
    } else {
        printf("%s registered in %s (registration %" PRId64 "); program %s\n", arb_term(name, term, sizeof term),
               tname, id, prog->digest);
        status = CLI_EXIT_OK;
    }
close:
    store_close(st);
    cli_close_place(&place);
out:
    free(bundle);
    free(prog);
    return status;
}
