/* cmd_check.c — `arbiter check FILE...`: validate tournament files without
 * running anything; every error names FILE:LINE:COLUMN. */
#include "cli.h"
#include "config.h"

#include <stdio.h>

int cmd_check(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: arbiter check FILE...\n");
        return 2;
    }
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        tn_config cfg;
        char err[1024];
        if (tn_config_load(argv[i], &cfg, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            bad++;
            continue;
        }
        printf("%s: ok (%s: %d entrants, %s, %s/%s, deals per match: %u)\n", argv[i], cfg.name, cfg.nentrants,
               tn_format_name((tn_format)cfg.format), cfg.game->name, cfg.rules, cfg.deals);
        tn_config_release(&cfg);
    }
    return bad ? 1 : 0;
}
