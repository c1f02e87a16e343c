/* test_live.h — a match between real bot processes played into a
 * transcript, for the tests that link the referee (test_match, dab_hostile,
 * deal_test), with what they share around it: a bot's command, the
 * transcript read back, and the processes a match left behind. A match is:
 * the live driver at a sandbox level (sanitizer builds lift the address
 * space limit their shadow memory needs), record_match, the driver freed.
 * Exits the test when the driver or the transcript cannot be had. */
#ifndef ARB_TEST_LIVE_H
#define ARB_TEST_LIVE_H
#include "live.h"
#include "record.h"
#include "../unit/test_util.h"

#include "transcript.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A bot of the match: its name and argv (NULL-terminated, at most
 * ARB_MAX_BOT_ARGS). */
static inline void test_set_bot(match_bot_cfg *b, const char *name, const char *const *argv)
{
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    for (int i = 0; argv[i] && i < ARB_MAX_BOT_ARGS; i++)
        snprintf(b->argv[b->argc++], sizeof b->argv[0], "%s", argv[i]);
}

/* A transcript's bytes (the caller frees); exits the test when unreadable. */
static inline void test_load_transcript(const char *path, uint8_t **data, size_t *len)
{
    char err[256];
    if (tr_load(path, data, len, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
}

/* Processes whose parent is us (bots left running) or that run as one of
 * the last match's bot uids from uid_base (orphans of a bot, re-parented
 * elsewhere; uid_base <= 0: none known). Each is named on stderr. */
static inline int test_leftovers(int uid_base)
{
    int n = 0;
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300], buf[4096];
        snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = 0;
        const char *pp = strstr(buf, "PPid:"), *uid = strstr(buf, "Uid:");
        int ppid = -1, u = -1;   /* "PPid:\t123", "Uid:\t1000\t..." */
        if (!pp || sscanf(pp + 5, "%d", &ppid) != 1)
            ppid = -1;
        if (!uid || sscanf(uid + 4, "%d", &u) != 1)
            u = -1;
        if (ppid == getpid() || (uid_base > 0 && u >= uid_base && u < uid_base + ARB_MAX_SEATS)) {
            fprintf(stderr, "left over: pid %s ppid %d uid %d\n", e->d_name, ppid, u);
            n++;
        }
    }
    if (d)
        closedir(d);
    return n;
}

#endif
