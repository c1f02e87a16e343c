/* cmd_check.c — `arbiter check FILE...`: validate tournament files without
 * running anything; every error names FILE:LINE:COLUMN. */
#include "cli.h"
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int cmd_check(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: arbiter check [--programs] FILE...\n");
        return 2;
    }
    int bad = 0;
    /* --programs: also check that every entrant's program can be started,
     * for every file named, wherever the option stands */
    bool check_programs = false;
    for (int i = 1; i < argc; i++) {
        check_programs |= strcmp(argv[i], "--programs") == 0;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: arbiter check [--programs] FILE...\n\n"
                   "Loads each tournament file as arbiter run would and says FILE: ok, or\n"
                   "FILE:LINE:COLUMN: what is wrong. --programs also checks that every\n"
                   "entrant's program can be started and its files: are there.\n");
            return 0;
        }
        if (argv[i][0] == '-' && strcmp(argv[i], "--programs") != 0) {
            fprintf(stderr, "arbiter: check: unknown option \"%s\" (arbiter check --help)\n", argv[i]);
            return 2;
        }
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--programs") == 0)
            continue;
        tn_config cfg;
        char err[1024];
        if (tn_config_load(argv[i], &cfg, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            bad++;
            continue;
        }
        if (check_programs && tn_config_check_commands(&cfg, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            tn_config_release(&cfg);
            bad++;
            continue;
        }
        printf("%s: ok (%d entrants, %s, %s/%s)\n", argv[i], cfg.nentrants, tn_format_name((tn_format)cfg.format),
               cfg.game->name, cfg.rules);
        tn_config_release(&cfg);
    }
    return bad ? 1 : 0;
}
