/* main_scheduler.c — `arbiter-scheduler`: the scheduler daemon (cmd_daemons.c). */
#include "cli.h"

int main(int argc, char **argv)
{
    return cmd_scheduler(argc, argv);
}
