/* test_bundle_tree.c — bundles of any size (bundle.h) against hostile
 * input: a bundle without links keeps the digest the code before links gave
 * it (26a37506..., computed by main's bundle_build on the same two files);
 * bundle_check refuses bundles whose entries are out of order or twice,
 * have a strange mode, lie under a file or a link, or hold a link that is
 * absolute (outside /usr/ and /bin/), leads out directly or through other
 * links, names nothing, loops, or that take too many steps, and truncations
 * of a good bundle; bundle_from_dir and bundle_unpack agree (links as
 * links); bundle_list and bundle_has see the entries. */
#include "bundle.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_file.h"
#include "test_util.h"

#include <fcntl.h>

#include <msgpack.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static msgpack_sbuffer sb;
static msgpack_packer pk;

typedef struct ent { const char *path; unsigned mode; const char *data; } ent;

static void build(const ent *e, int n)
{
    msgpack_sbuffer_clear(&sb);
    msgpack_pack_array(&pk, (size_t)n);
    for (int i = 0; i < n; i++) {
        msgpack_pack_array(&pk, 3);
        msgpack_pack_str_with_body(&pk, e[i].path, strlen(e[i].path));
        msgpack_pack_uint32(&pk, e[i].mode);
        msgpack_pack_bin_with_body(&pk, e[i].data, strlen(e[i].data));
    }
}

static int check_ents(const ent *e, int n, char *err, size_t errlen)
{
    build(e, n);
    uint8_t *copy = malloc(sb.size);   /* exactly its size: ASan sees a read past it */
    memcpy(copy, sb.data, sb.size);
    int rc = bundle_check(copy, sb.size, NULL, err, errlen);
    free(copy);
    return rc;
}

#define L BUNDLE_MODE_LINK
#define REFUSED(why, ...) do { const ent e_[] = {__VA_ARGS__}; char err_[512]; \
    int rc_ = check_ents(e_, (int)(sizeof e_ / sizeof e_[0]), err_, sizeof err_); \
    CHECKF(rc_ != 0 && strstr(err_, why), "%s: rc %d, \"%s\"", why, rc_, err_); } while (0)
#define ACCEPTED(...) do { const ent e_[] = {__VA_ARGS__}; char err_[512]; \
    int rc_ = check_ents(e_, (int)(sizeof e_ / sizeof e_[0]), err_, sizeof err_); \
    CHECKF(rc_ == 0, "%s", err_); } while (0)

/* dir/rel with its directories, holding text, mode */
static int put(const char *dir, const char *rel, const char *text, mode_t mode)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')) != NULL; s++) {
        *s = 0;
        mkdir(p, 0755);
        *s = '/';
    }
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
    if (fd < 0)
        return -1;
    int rc = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
    fchmod(fd, mode);
    close(fd);
    return rc;
}

static int link_at(const char *dir, const char *rel, const char *target)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    return symlink(target, p);
}

static int seen;
static void count(void *ctx, const char *path, unsigned mode)
{
    (void)ctx;
    seen += path[0] != 0 && (mode == 0644 || mode == 0755 || mode == L);
}

int main(void)
{
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    char dir[] = "/tmp/arb-bundle-tree-XXXXXX", path[512], err[512], digest[65];
    if (!mkdtemp(dir))
        return 2;

    /* a bundle without links: the old digest */
    {
        CHECK(put(dir, "old/a.py", "x\n", 0644) == 0 && put(dir, "old/lib/m.py", "y", 0755) == 0);
        char a[600], m[600];
        snprintf(a, sizeof a, "%s/old/a.py", dir);
        snprintf(m, sizeof m, "%s/old/lib/m.py", dir);
        char ra[600], rm[600];
        CHECK(realpath(a, ra) && realpath(m, rm));
        const char *files[] = {ra, rm};
        char rel[2][ARB_BUNDLE_MAX_PATH + 1];
        uint8_t *b = NULL, *b2 = NULL;
        size_t len = 0, len2 = 0;
        CHECKF(bundle_build(files, 2, &b, &len, digest, rel, err, sizeof err) == 0, "%s", err);
        CHECKF(strcmp(digest, "26a375067ba6b3098803a03ef498ce6c5e759c890fa84d68e7aed036c83139f6") == 0,
               "an old bundle's digest changed: %s", digest);
        char d2[65];
        snprintf(path, sizeof path, "%s/old", dir);
        CHECKF(bundle_from_dir(path, &b2, &len2, d2, err, sizeof err) == 0, "%s", err);
        CHECK(b2 && len2 == len && memcmp(b, b2, len) == 0 && strcmp(d2, digest) == 0);   /* the same bytes */
        bundle_info in;
        CHECK(bundle_check(b, len, &in, err, sizeof err) == 0 && in.files == 2 && in.links == 0 && in.depth == 2
              && in.bytes == 3);
        free(b);
        free(b2);
    }

    /* hostile bundles */
    ACCEPTED({"a", 0644, "x"}, {"b", L, "a"}, {"c", L, "b"}, {"d", L, "."}, {"e/f", L, "../a"}, {"g", L, "e"},
             {"h", L, "g/f"}, {"py", L, "/usr/bin/python3"});
    REFUSED("out of order or named twice", {"b", 0644, "x"}, {"a", 0644, "x"});
    REFUSED("out of order or named twice", {"a", 0644, "x"}, {"a", 0755, "y"});
    REFUSED("mode 777 is none of", {"a", 0777, "x"});
    REFUSED("mode 100644 is none of", {"a", 0100644, "x"});
    REFUSED("lies under the link lib64", {"lib", 0644, "x"}, {"lib64", L, "lib"}, {"lib64/evil", 0644, "x"});
    REFUSED("lies under the file a", {"a", 0644, "x"}, {"a/b", 0644, "x"});
    REFUSED("a link to the absolute path /etc/passwd", {"a", L, "/etc/passwd"});
    REFUSED("a link to the absolute path /usr/../etc/passwd", {"a", L, "/usr/../etc/passwd"});
    REFUSED("leads out of the bundle", {"a", L, ".."});
    REFUSED("leads out of the bundle", {"d/a", L, "../../x"});
    /* out through another link: up/.. is the root's parent when up -> .. */
    REFUSED("leads out of the bundle", {"d/up", L, ".."}, {"x", 0644, "1"}, {"y", L, "d/up/../x"});
    REFUSED("leads out of the bundle", {"d/e/up", L, "../.."}, {"z", L, "d/e/up/.."});
    /* up out of the system through a link to it: a/../../etc is the host's /etc
     * (the referee resolves a command's words on the host), refused */
    REFUSED("climbs out of the system path a", {"a", L, "/usr/bin"}, {"b", L, "a/../../etc"});
    REFUSED("climbs out of the system path s/a", {"s/a", L, "/usr/bin"}, {"s/b", L, "../s/a/x/../../../root"});
    ACCEPTED({"a", L, "/usr/bin"}, {"b", L, "a/python3"}, {"c", L, "a/./python3"});
    REFUSED("names nothing in the bundle", {"a", 0644, "x"}, {"b", L, "c"});
    REFUSED("goes through the file a", {"a", 0644, "x"}, {"b", L, "a/x"});
    REFUSED("more than 40 links", {"a", L, "b"}, {"b", L, "a"});
    REFUSED("a link's target of 0 bytes", {"a", L, ""});
    /* what packages ship (setuptools' "launcher manifest.xml", "script
     * (dev).tmpl"), but no part beginning or ending with a space, no quote,
     * backslash, control byte or '*' */
    ACCEPTED({"a b", 0644, "x"}, {"d/script (dev).tmpl", 0644, "y"}, {"e/launcher manifest.xml", 0644, "z"});
    REFUSED("letters, digits", {" a", 0644, "x"});
    REFUSED("letters, digits", {"a /b", 0644, "x"});
    REFUSED("letters, digits", {"a\"b", 0644, "x"});
    REFUSED("letters, digits", {"a\\b", 0644, "x"});
    REFUSED("letters, digits", {"a\nb", 0644, "x"});
    REFUSED("letters, digits", {"a*", 0644, "x"});
    CHECK(!bundle_word_path("a b") && bundle_word_path("a/b.py") && !bundle_word_path("a(b)"));
    REFUSED("letters, digits", {"../a", 0644, "x"});
    REFUSED("letters, digits", {"/a", 0644, "x"});
    /* not msgpack of entries at all, and truncations of a good bundle */
    {
        const ent good[] = {{"a", 0644, "xyz"}, {"b/c", L, "../a"}};
        build(good, 2);
        size_t n = sb.size;
        uint8_t *whole = malloc(n);
        memcpy(whole, sb.data, n);
        int accepted = 0;
        for (size_t k = 0; k < n; k++) {
            uint8_t *cut = malloc(k ? k : 1);
            memcpy(cut, whole, k);
            accepted += bundle_check(cut, k, NULL, err, sizeof err) == 0;
            free(cut);
        }
        CHECKF(accepted == 0, "%d truncations accepted", accepted);
        CHECK(bundle_check(whole, n, NULL, err, sizeof err) == 0);
        seen = 0;
        CHECK(bundle_list(whole, n, count, NULL) == 0 && seen == 2);
        unsigned mode = 0;
        CHECK(bundle_has(whole, n, "b/c", &mode) && mode == L && !bundle_has(whole, n, "b", NULL));
        /* every single-byte change is refused or still a good bundle */
        int bad = 0;
        for (size_t k = 0; k < n; k++)
            for (int v = 0; v < 256; v += 7) {
                uint8_t *m = malloc(n);
                memcpy(m, whole, n);
                m[k] = (uint8_t)v;
                bundle_info in;
                if (bundle_check(m, n, &in, err, sizeof err) == 0)
                    bad += in.files + in.links < 1;
                free(m);
            }
        CHECK(bad == 0);
        free(whole);
    }
    /* a hostile link set that would take billions of steps: bounded */
    {
        /* chains of 39 links, each target ~1000 bytes of "./": ~20,000
         * steps a link, 40 million in all */
        static ent many[2000];
        static char names[2000][16], tgts[2000][1024];
        for (int i = 0; i < 1999; i++) {
            size_t t = 0;
            while (t + 2 < 1000) {
                memcpy(tgts[i] + t, "./", 2);
                t += 2;
            }
            snprintf(tgts[i] + t, sizeof tgts[i] - t, i % 40 == 39 ? "x" : "l%04d", i + 1);
            snprintf(names[i], sizeof names[i], "l%04d", i);
            many[i] = (ent){names[i], L, tgts[i]};
        }
        many[1999] = (ent){"x", 0644, "1"};
        /* "x" sorts after "l...": put it last, names stay sorted */
        char e2[512];
        int rc = check_ents(many, 2000, e2, sizeof e2);
        CHECKF(rc == ARB_ETOOBIG && strstr(e2, "steps"), "rc %d %s", rc, e2);
    }
    /* a tree with links, packed and unpacked: links are links */
    {
        snprintf(path, sizeof path, "%s/t", dir);
        mkdir(path, 0755);
        CHECK(put(path, "lib/pkg/m.py", "a\n", 0644) == 0 && link_at(path, "lib64", "lib") == 0
              && link_at(path, "python", "/usr/bin/python3") == 0 && link_at(path, "lib/alias", "../lib64/pkg/m.py") == 0);
        uint8_t *b = NULL;
        size_t len = 0;
        CHECKF(bundle_from_dir(path, &b, &len, digest, err, sizeof err) == 0, "%s", err);
        char cache[600], link[800], target[64] = "";
        snprintf(cache, sizeof cache, "%s/cache", dir);
        CHECKF(b && bundle_unpack(b, len, digest, cache, err, sizeof err) == 0, "%s", err);
        snprintf(link, sizeof link, "%s/%s/lib64", cache, digest);
        struct stat st;
        CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode) && readlink(link, target, sizeof target - 1) == 3
              && strcmp(target, "lib") == 0);
        snprintf(link, sizeof link, "%s/%s/lib/alias", cache, digest);
        CHECK(stat(link, &st) == 0 && S_ISREG(st.st_mode));   /* through lib64, inside */
        free(b);
        CHECK(link_at(path, "lib/up", "../..") == 0);
        CHECK(bundle_from_dir(path, &b, &len, digest, err, sizeof err) == ARB_EINVAL && strstr(err, "lib/up")
              && strstr(err, "leads out"));
    }
    CHECK(arb_remove_tree(dir) == 0);
    msgpack_sbuffer_destroy(&sb);
    return TEST_DONE("bundle-tree");
}
