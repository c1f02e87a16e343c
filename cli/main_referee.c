/* main_referee.c — `arbiter-referee`: the referee worker daemon (cmd_daemons.c). */
#include "cli_base.h"

int main(int argc, char **argv)
{
    return cmd_referee(argc, argv);
}
