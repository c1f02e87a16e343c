/* rec_bundle.c — an entrant's files: confined to the tournament's tree at
 * the last moment, when the scheduler packs them (bundle_confine,
 * bundle_build): absolute names, ".." escapes, a file link and a directory
 * link out are refused; a directory swapped for a link out after the path
 * was resolved and checked (the race between `check`/the loader and the
 * packing) is refused by bundle_build, which opens exactly the resolved
 * path; what lies inside is packed. Usage: rec_bundle */
#include "bundle.h"
#include "arb_file.h"
#include "arb_error.h"
#include "test_util.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

int main(void)
{
    char tmpl[] = "/tmp/arbiter-rec-bundle.XXXXXX", root[PATH_MAX], p[PATH_MAX + 64], q[PATH_MAX + 64];
    char got[PATH_MAX], why[PATH_MAX + 64];
    if (!mkdtemp(tmpl) || !realpath(tmpl, root))
        return 2;
    char tour[PATH_MAX + 16], out[PATH_MAX + 16];
    snprintf(tour, sizeof tour, "%s/tour", root);
    snprintf(out, sizeof out, "%s/outside", root);
    mkdir(tour, 0755);
    mkdir(out, 0755);
    snprintf(p, sizeof p, "%s/lib", tour), mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/lib", out), mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/lib/model.bin", tour), put(p, "model\n");
    snprintf(p, sizeof p, "%s/lib/model.bin", out), put(p, "SECRET\n");
    snprintf(p, sizeof p, "%s/link-out.bin", tour);
    snprintf(q, sizeof q, "%s/lib/model.bin", out);
    CHECK(symlink(q, p) == 0);
    snprintf(p, sizeof p, "%s/dir-out", tour);
    CHECK(symlink(out, p) == 0);

    /* refused by name and by where they lead */
    CHECK(bundle_confine(tour, tour, "/etc/shadow", got, sizeof got, why, sizeof why) == ARB_EINVAL
          && strstr(why, "absolute"));
    CHECK(bundle_confine(tour, tour, "../outside/lib/model.bin", got, sizeof got, why, sizeof why) == ARB_EINVAL
          && strstr(why, ".."));
    CHECK(bundle_confine(tour, tour, "lib/../../outside/lib/model.bin", got, sizeof got, why, sizeof why) == ARB_EINVAL);
    CHECK(bundle_confine(tour, tour, "link-out.bin", got, sizeof got, why, sizeof why) == ARB_EINVAL
          && strstr(why, "symbolic link out"));
    CHECK(bundle_confine(tour, tour, "dir-out/lib/model.bin", got, sizeof got, why, sizeof why) == ARB_EINVAL
          && strstr(why, "symbolic link out"));
    CHECK(bundle_confine(tour, tour, "lib/missing.bin", got, sizeof got, why, sizeof why) == ARB_ENOTFOUND);
    /* inside: fine, resolved; a ".." that stays inside too */
    snprintf(q, sizeof q, "%s/lib/model.bin", tour);
    CHECKF(bundle_confine(tour, tour, "./lib/../lib/model.bin", got, sizeof got, why, sizeof why) == 0
           && strcmp(got, q) == 0, "%s", why);
    /* no tree at all (a configuration not from the loader): nothing passes */
    CHECK(bundle_confine("", tour, "lib/model.bin", got, sizeof got, why, sizeof why) == ARB_EINVAL);
    /* a wider root (files_root) takes what lies under it */
    CHECK(bundle_confine(root, tour, "../outside/lib/model.bin", got, sizeof got, why, sizeof why) == 0);

    /* resolved and checked, then the directory swapped for a link out */
    char resolved[PATH_MAX];
    CHECK(bundle_confine(tour, tour, "lib/model.bin", resolved, sizeof resolved, why, sizeof why) == 0);
    snprintf(p, sizeof p, "%s/lib", tour);
    snprintf(q, sizeof q, "%s/lib.real", tour);
    CHECK(rename(p, q) == 0);
    snprintf(q, sizeof q, "%s/lib", out);
    CHECK(symlink(q, p) == 0);
    const char *files[] = {resolved};
    uint8_t *b = NULL;
    size_t len = 0;
    char digest[65], rel[1][ARB_BUNDLE_MAX_PATH + 1], err[PATH_MAX + 128];
    int rc = bundle_build(files, 1, &b, &len, digest, rel, err, sizeof err);
    CHECKF(rc == ARB_EINVAL && !b && strstr(err, "symbolic link"), "a swapped directory: refused (%d: %s)", rc, err);
    CHECK(!b || !memmem(b, len, "SECRET", 6));
    free(b);
    b = NULL;
    CHECK(bundle_confine(tour, tour, "lib/model.bin", got, sizeof got, why, sizeof why) == ARB_EINVAL);
    /* put back: packed */
    CHECK(unlink(p) == 0);
    snprintf(q, sizeof q, "%s/lib.real", tour);
    CHECK(rename(q, p) == 0);
    rc = bundle_build(files, 1, &b, &len, digest, rel, err, sizeof err);
    CHECKF(rc == 0 && b && memmem(b, len, "model", 5) && strcmp(rel[0], "model.bin") == 0, "%d %s", rc, err);
    free(b);

    if (arb_remove_tree(root) != 0)
        fprintf(stderr, "could not remove %s\n", root);
    return TEST_DONE("rec_bundle");
}
