/* test_live.h — a match between real bot processes played into a
 * transcript, for the tests that link the referee (test_match, deal_test):
 * the live driver at a sandbox level (sanitizer builds lift the address
 * space limit their shadow memory needs), record_match, the driver freed.
 * Exits the test when the driver or the transcript cannot be had. */
#ifndef ARB_TEST_LIVE_H
#define ARB_TEST_LIVE_H
#include "live.h"
#include "record.h"
#include "../unit/test_util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* record_match's code; *uid_base (may be NULL) the bots' first uid. */
static inline int test_play_live(const match_config *cfg, const char *path, int sandbox, match_result *res,
                                 char digest[65], int *uid_base)
{
    char err[256];
    live_options lo = {.sandbox = sandbox};
    if (TEST_SANITIZED)
        lo.limits.address_space = UINT64_MAX;
    live_driver *l = live_new(&lo, err, sizeof err);
    if (!l) {
        fprintf(stderr, "live_new: %s\n", err);
        exit(1);
    }
    int rc = record_match(path, cfg, live_driver_of(l), NULL, res, digest);
    if (!digest[0]) {
        fprintf(stderr, "%s\n", res->error);
        exit(1);
    }
    if (uid_base)
        *uid_base = (int)live_uid_base(l);
    live_free(l);
    if (rc)
        fprintf(stderr, "match_run: %s\n", res->error);
    return rc;
}

#endif
