/* bundle_int.h — what bundle.c, bundle_tree.c and bundle_archive.c share:
 * an index over a checked bundle (pointers into its bytes), and entries
 * gathered from a directory or an archive before they are packed. */
#ifndef ARB_BUNDLE_INT_H
#define ARB_BUNDLE_INT_H
#include "bundle.h"

#include <stddef.h>
#include <stdint.h>

#define BUNDLE_SAFE_PATH_RULE \
    "a name of letters, digits, . _ + - and space ( ) , = @ ~ [ ] { } ! % # & only (no part beginning or ending " \
    "with a space), neither . nor .., at most 255 bytes: refused"

/* One entry of a bundle, pointing into its bytes (not NUL-terminated). */
typedef struct bundle_ent {
    const char *path;
    uint32_t plen, mode;
    const uint8_t *data;
    uint32_t dlen;
} bundle_ent;

/* bundle_check's work, keeping the index (*out, malloc'ed, *count entries in
 * order) for the caller. */
int bundle_index(const uint8_t *b, size_t len, bundle_ent **out, uint32_t *count, bundle_info *info, char *err,
                 size_t errlen);

/* An absolute link target a bundle may hold (under /usr/ or /bin/, clean). */
bool bundle_system_target(const char *t, size_t tl);

/* Entries gathered to be packed (paths NUL-terminated, owned). */
typedef struct bundle_src_ent {
    char *path;
    unsigned mode;
    uint8_t *data;
    size_t len;
} bundle_src_ent;
typedef struct bundle_src {
    bundle_src_ent *v;
    size_t n, cap;
} bundle_src;

/* Add an entry (takes data, freed on failure too); ARB_ETOOBIG past
 * ARB_BUNDLE_MAX_ENTRIES. */
int bundle_ents_add(bundle_src *s, const char *path, unsigned mode, uint8_t *data, size_t len, char *err,
                    size_t errlen);
/* Sort, pack and check (bundle_check's rules: a refusal is ARB_EINVAL or
 * ARB_ETOOBIG). */
int bundle_ents_pack(bundle_src *s, uint8_t **out, size_t *len, char digest[65], char *err, size_t errlen);
void bundle_ents_free(bundle_src *s);

#endif
