/* cmd_rules.c — `arbiter rules`: list presets and options, print a preset's
 * full option set (what a tournament's rules line means, exactly). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int cmd_rules(int argc, char **argv)
{
    ddz_rules r;
    ddz_rules_preset(&r, "standard");
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            printf("usage: arbiter rules [--rules PRESET] [--set k=v,...]\n"
                   "  Prints every option of the rule set as key=value.\n");
            return 0;
        }
        if ((strcmp(argv[i], "--rules") == 0 || strcmp(argv[i], "--set") == 0) && i + 1 < argc) {
            if (cli_rules_option(&r, argv[i], argv[i + 1]))
                return 2;
            i++;
            continue;
        }
        fprintf(stderr, "arbiter rules: unknown argument \"%s\"\n", argv[i]);
        return 2;
    }
    char buf[8192];
    ddz_rules_describe(&r, buf, sizeof buf);
    fputs(buf, stdout);
    return 0;
}
