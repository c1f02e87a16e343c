/* sbx_uidlock.c — the referee's uid-block lock files cannot be used to make
 * root create or lock a file of an attacker's choosing: a symlink planted
 * where the lock goes (the old world-writable /run/lock, or the new root-only
 * directory) is never followed, and that block is skipped. Without root no
 * lock file is made at all. */
#include "live.h"
#include "../unit/test_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
    char err[512];
    if (geteuid() != 0) {
        /* the non-root guarantee: no uid blocks, no lock files */
        live_options lo = {.sandbox = LIVE_SANDBOX_NONE};
        live_driver *l = live_new(&lo, err, sizeof err);
        CHECKF(l != NULL, "%s", err);
        CHECK(l && live_uid_base(l) == 0);
        live_free(l);
        return TEST_DONE("sbx_uidlock (not root: uid locks are root's only)");
    }
    /* a block far from the ones other tests use, different per run */
    uid_t base = 63000 + (uid_t)(getpid() % 200) * 8;
    char victim[] = "/tmp/sbx-uidlock-victim-XXXXXX";
    if (!mkdtemp(victim))
        return 2;
    char target[300], old[128], now[128];
    snprintf(target, sizeof target, "%s/created-by-root", victim);
    snprintf(old, sizeof old, "/run/lock/arbiter-uid-%u.lock", (unsigned)base);
    snprintf(now, sizeof now, "%s/uid-%u.lock", LIVE_LOCK_DIR, (unsigned)(base + ARB_MAX_SEATS));
    unlink(old);
    CHECK(symlink(target, old) == 0);   /* what any local user can plant in /run/lock */
    live_options lo = {.sandbox = LIVE_SANDBOX_NONE, .uid_base = base};
    live_driver *l = live_new(&lo, err, sizeof err);
    CHECKF(l != NULL, "%s", err);
    CHECKF(access(target, F_OK) != 0, "root created %s through the planted symlink", target);
    CHECKF(l && live_uid_base(l) != base, "the block behind the symlink was used");
    live_free(l);
    /* the lock directory: root's own, closed to others */
    struct stat st;
    CHECK(lstat(LIVE_LOCK_DIR, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == 0 && (st.st_mode & 077) == 0);
    /* a symlink in the new directory (only root could plant it) is skipped too */
    unlink(now);
    CHECK(symlink(target, now) == 0);
    l = live_new(&lo, err, sizeof err);
    CHECKF(l != NULL, "%s", err);
    CHECK(access(target, F_OK) != 0);
    CHECK(l && live_uid_base(l) != base && live_uid_base(l) != base + ARB_MAX_SEATS);
    live_free(l);
    unlink(old);
    unlink(now);
    unlink(target);
    rmdir(victim);
    return TEST_DONE("sbx_uidlock");
}
