/* cmd_check.c — `arbiter check FILE...`: validate tournament files without
 * running anything; every error names FILE:LINE:COLUMN. */
#include "cli.h"
#include "config.h"
#include "arb_error.h"

#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: arbiter check [--no-programs] FILE...\n\n"
               "Loads each tournament file as arbiter run would and says FILE: ok, or\n"
               "FILE:LINE:COLUMN: what is wrong, and checks that every entrant's program\n"
               "can be started and its files: are there (--no-programs: the file alone,\n"
               "for one written on another machine; --programs is accepted, the default).\n"
               "Exit status 0 when every file is ok, 1 when one is not, 2 when one\n"
               "cannot be read.\n");
}

int cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"programs", no_argument, NULL, 'p'},
        {"no-programs", no_argument, NULL, 'n'},
        {NULL, 0, NULL, 0},
    };
    /* Every entrant's program must be startable, for every file named
     * (a missing bot program said ok unless --programs was given);
     * --no-programs, wherever it stands, checks the files alone. */
    bool check_programs = true;
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("check", argc, argv, ":h", opts)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return CLI_EXIT_OK;
        case 'p': check_programs = true; break;
        case 'n': check_programs = false; break;
        default: usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    int bad = 0, unreadable = 0;
    for (int i = optind; i < argc; i++) {
        tn_config cfg;
        char err[1024];
        int rc = tn_config_load(argv[i], &cfg, err, sizeof err);
        if (rc != 0) {
            fprintf(stderr, "%s\n", err);
            bad++;
            unreadable += rc == ARB_EIO;   /* not a file that does not check: one that could not be read */
            continue;
        }
        if (check_programs && tn_config_check_commands(&cfg, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            tn_config_release(&cfg);
            bad++;
            continue;
        }
        char teams[48] = "";
        if (cfg.nteams > 0)
            snprintf(teams, sizeof teams, "%d teams of ", cfg.nteams);
        char reg[96] = "";
        if (cfg.registration.open) {
            time_t until = (time_t)cfg.registration.until;
            struct tm tm;
            gmtime_r(&until, &tm);
            strftime(reg, sizeof reg, " and registration until %Y-%m-%dT%H:%M:%SZ", &tm);
        }
        printf("%s: ok (%s%d entrants%s, %s, %s/%s)\n", argv[i], teams, cfg.nentrants, reg,
               tn_format_name((tn_format)cfg.format), cfg.match.game->name, cfg.match.preset);
        tn_config_release(&cfg);
    }
    return unreadable ? CLI_EXIT_USAGE : bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
