/* programs.c — entrants' programs for workers on other hosts (sched_int.h):
 * the files of each bot's command packed into a bundle named by its
 * digest and kept in the record (017_programs.sql) with where each file
 * goes in the command, a bundle served from the record to a worker that
 * fetches it, and a tournament's recorded program played when the files it
 * was packed from are gone or changed (a rerun years later). */
#include "sched_int.h"
#include "config.h"
#include "bundle.h"
#include "arb_error.h"
#include "arb_log.h"

#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static const char *SUB = SCHED_SUB;

/* The files of a bot's command that a worker elsewhere needs: every
 * argument naming a regular file outside the system's directories (the
 * program, a script), packed into a bundle named by its digest. */
typedef struct packing packing;
static int pack(sched *s, entrant_bot *eb, packing *pk, char *err, size_t errlen);
static int pack_tree(sched *s, entrant_bot *eb, const tn_entrant *e, const char *base, packing *pk, char *err,
                     size_t errlen);

struct packing {
    const char *files[ARB_MAX_BOT_ARGS + ARB_BUNDLE_MAX_FILES];
    char extra[ARB_BUNDLE_MAX_FILES][4096], args[ARB_MAX_BOT_ARGS][4096];
    int  nall;
    char tree[4096];   /* "" or the program as a whole: a directory or an archive (files:) */
    bool archive;
};

/* files: naming one directory or one archive: the program is that tree,
 * whole (pk->tree set, resolved and confined to root); 0 with pk->tree ""
 * when files: lists plain files (or nothing). A directory or an archive
 * must be the list's only item: it is the bundle's root. */
static int tree_of(const tn_entrant *e, const char *base, const char *root, packing *pk, char *err, size_t errlen)
{
    char list[ARB_TN_MAX_COMMAND], *save = NULL, resolved[4096], why[4200];
    int items = 0, trees = 0;
    pk->tree[0] = 0;
    snprintf(list, sizeof list, "%s", e->files);
    for (char *f = strtok_r(list, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
        struct stat st;
        items++;
        if (bundle_confine(root, base, f, resolved, sizeof resolved, why, sizeof why)) {
            snprintf(err, errlen, "entrant %s: files: \"%s\" %s", e->name, f, why);
            return ARB_ENOTFOUND;
        }
        if (stat(resolved, &st) != 0) {
            snprintf(err, errlen, "entrant %s: files: \"%s\" cannot be read", e->name, f);
            return ARB_ENOTFOUND;
        }
        bool dir = S_ISDIR(st.st_mode);
        if (!dir && !(S_ISREG(st.st_mode) && tn_archive_name(f)))
            continue;
        pk->archive = !dir;
        trees++;
        snprintf(pk->tree, sizeof pk->tree, "%s", resolved);
    }
    if (trees && items > 1) {
        snprintf(err, errlen, "entrant %s: files: a directory or an archive is the whole program: it must be the "
                 "only item", e->name);
        return ARB_EINVAL;
    }
    return 0;
}

/* The bundle of a tree program (a directory or an archive). */
static int tree_bundle(const char *tree, bool archive, uint8_t **b, size_t *len, char digest[65], char *err,
                       size_t errlen)
{
    if (!archive)
        return bundle_from_dir(tree, b, len, digest, err, errlen);
    FILE *f = fopen(tree, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot be read", tree);
        return ARB_EIO;
    }
    uint8_t *a = malloc(ARB_BUNDLE_MAX_ARCHIVE + 1);
    size_t alen = a ? fread(a, 1, ARB_BUNDLE_MAX_ARCHIVE + 1, f) : 0;
    fclose(f);
    int rc;
    if (!a)
        rc = ARB_ENOMEM;
    else if (alen > ARB_BUNDLE_MAX_ARCHIVE) {
        snprintf(err, errlen, "%s: over %zu bytes", tree, (size_t)ARB_BUNDLE_MAX_ARCHIVE);
        rc = ARB_ETOOBIG;
    } else {
        char why[1024];
        rc = bundle_from_archive(a, alen, b, len, digest, why, sizeof why);
        if (rc)
            snprintf(err, errlen, "%s: %s", tree, why);
    }
    free(a);
    return rc;
}

/* The command's words that name a file or link of the bundle (relative,
 * "./" dropped): eb->argi/rel/nfiles. The first word is one of them or a
 * program found in PATH; a word with a '/' that names nothing in the
 * bundle is refused (it would name the organiser's host). */
static int map_words(entrant_bot *eb, const tn_entrant *e, const uint8_t *b, size_t len, char *err, size_t errlen)
{
    char words[ARB_TN_MAX_COMMAND], *save = NULL;
    int n = 0;
    eb->nfiles = 0;
    snprintf(words, sizeof words, "%s", e->command);
    for (char *tok = strtok_r(words, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save), n++) {
        const char *w = tok;
        while (w[0] == '.' && w[1] == '/')
            w += 2;
        if (tok[0] != '/' && bundle_word_path(w) && bundle_has(b, len, w, NULL)) {
            if (eb->nfiles == ARB_MAX_BOT_ARGS)
                break;
            eb->argi[eb->nfiles] = n;
            snprintf(eb->rel[eb->nfiles], sizeof eb->rel[eb->nfiles], "%s", w);
            eb->nfiles++;
        } else if (n == 0 && strchr(tok, '/')) {
            snprintf(err, errlen, "entrant %s: the command's program \"%s\" is not a file of its program "
                     "(a word of the command that is, is relative to the directory or archive's root)", e->name, tok);
            return ARB_ENOTFOUND;
        }
    }
    return 0;
}

/* The command with each bundle word pointed at dir/DIGEST/PATH (the
 * unpacked bundle) and the bot made of it. The program's own words are
 * kept as paths into the bundle, not resolved: a venv's bin/python is a
 * link whose own place tells Python its environment (pyvenv.cfg). */
static int bot_in_cache(entrant_bot *eb, const tn_entrant *e, const char *cache, const char *digest,
                        const char *base, char *err, size_t errlen)
{
    char words[ARB_TN_MAX_COMMAND], cmd[4096], *save = NULL;
    size_t used = 0;
    int n = 0;
    snprintf(words, sizeof words, "%s", e->command);
    cmd[0] = 0;
    if (strpbrk(cache, " \t")) {
        snprintf(err, errlen, "entrant %s: the program cache %s has a space in its name", e->name, cache);
        return ARB_EINVAL;
    }
    for (char *tok = strtok_r(words, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save), n++) {
        int k = 0;
        while (k < eb->nfiles && eb->argi[k] != n)
            k++;
        if (used < sizeof cmd)
            used += k < eb->nfiles ? (size_t)snprintf(cmd + used, sizeof cmd - used, "%s%s/%s/%s", n ? " " : "",
                                                      cache, digest, eb->rel[k])
                                   : (size_t)snprintf(cmd + used, sizeof cmd - used, "%s%s", n ? " " : "", tok);
    }
    if (used >= sizeof cmd) {
        snprintf(err, errlen, "entrant %s: its command is too long with its program's paths", e->name);
        return ARB_ETOOBIG;
    }
    entrant_bot keep = *eb;
    int rc = match_bot_command(&eb->bot, e->name, cmd, base, err, errlen);
    if (rc)
        return rc;
    eb->nfiles = keep.nfiles;
    memcpy(eb->argi, keep.argi, sizeof eb->argi);
    memcpy(eb->rel, keep.rel, sizeof eb->rel);
    for (int k = 0; k < eb->nfiles; k++) {
        char *arg = eb->bot.argv[eb->argi[k]];
        if ((size_t)snprintf(arg, sizeof eb->bot.argv[0], "%s/%s/", cache, digest) + strlen(eb->rel[k])
            >= sizeof eb->bot.argv[0]) {
            snprintf(err, errlen, "entrant %s: its program's path in the cache is too long", e->name);
            return ARB_ETOOBIG;
        }
        strncat(arg, eb->rel[k], sizeof eb->bot.argv[0] - strlen(arg) - 1);
    }
    return 0;
}

/* The files of eb's command and e's files: into pk (eb->argi, nfiles set). */
static int collect(entrant_bot *eb, const tn_entrant *e, const char *base, const char *root, packing *pk, char *err,
                   size_t errlen)
{
    const char **files = pk->files;
    char (*extra)[4096] = pk->extra, (*args)[4096] = pk->args;
    eb->nfiles = 0;
    for (int i = 0; i < eb->bot.argc; i++) {
        struct stat st;
        const char *a = eb->bot.argv[i];
        /* resolved: bundle_build opens exactly the path it is given */
        if (a[0] == '/' && !bundle_system_path(a) && stat(a, &st) == 0 && S_ISREG(st.st_mode)
            && realpath(a, args[eb->nfiles])) {
            eb->argi[eb->nfiles] = i;
            files[eb->nfiles] = args[eb->nfiles];
            eb->nfiles++;
        }
    }
    /* the entrant's other files (files:), relative to the tournament file
     * and inside its tree (root), checked again now that they are packed */
    int nall = eb->nfiles, nextra = 0;
    char list[ARB_TN_MAX_COMMAND], *save = NULL;
    snprintf(list, sizeof list, "%s", e->files);
    for (char *f = strtok_r(list, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
        char why[4200];
        if (nextra == ARB_BUNDLE_MAX_FILES || bundle_confine(root, base, f, extra[nextra], sizeof extra[nextra], why, sizeof why)) {
            snprintf(err, errlen, "entrant %s: files: \"%s\" %s", e->name, f, nextra == ARB_BUNDLE_MAX_FILES ? "is one too many" : why);
            return ARB_ENOTFOUND;
        }
        files[nall++] = extra[nextra++];
    }
    pk->nall = nall;
    return 0;
}

int sched_program_pack(const char *name, const char *command, const char *files, const char *dir,
                       sched_packed *out, char *err, size_t errlen)
{
    entrant_bot *eb = calloc(1, sizeof *eb);
    packing *pk = calloc(1, sizeof *pk);
    tn_entrant *e = calloc(1, sizeof *e);
    int rc = eb && pk && e ? 0 : ARB_ENOMEM;
    memset(out, 0, sizeof *out);
    if (!rc) {
        snprintf(e->name, sizeof e->name, "%s", name);
        snprintf(e->command, sizeof e->command, "%s", command);
        snprintf(e->files, sizeof e->files, "%s", files ? files : "");
        rc = tree_of(e, dir, dir, pk, err, errlen);
    }
    if (!rc && pk->tree[0]) {   /* a directory or an archive: its words map into it */
        rc = tree_bundle(pk->tree, pk->archive, &out->bundle, &out->len, out->digest, err, errlen);
        if (!rc)
            rc = map_words(eb, e, out->bundle, out->len, err, errlen);
        if (!rc && eb->nfiles == 0)   /* the program from PATH: it must be there */
            rc = match_bot_command(&eb->bot, name, command, dir, err, errlen);
        for (int i = 0; !rc && i < eb->nfiles; i++) {
            out->argi[i] = eb->argi[i];
            snprintf(out->rel[i], sizeof out->rel[i], "%s", eb->rel[i]);
        }
        if (!rc)
            out->nargs = eb->nfiles;
        else {
            free(out->bundle);
            memset(out, 0, sizeof *out);
        }
        free(eb);
        free(pk);
        free(e);
        return rc;
    }
    if (!rc)
        rc = match_bot_command(&eb->bot, name, command, dir, err, errlen);
    if (!rc)
        rc = collect(eb, e, dir, dir, pk, err, errlen);
    if (!rc && pk->nall > 0) {
        char (*rel)[ARB_BUNDLE_MAX_PATH + 1] = calloc(ARB_MAX_BOT_ARGS + ARB_BUNDLE_MAX_FILES, sizeof *rel);
        rc = rel ? bundle_build(pk->files, pk->nall, &out->bundle, &out->len, out->digest, rel, err, errlen)
                 : ARB_ENOMEM;
        for (int i = 0; !rc && i < eb->nfiles; i++) {
            out->argi[i] = eb->argi[i];
            snprintf(out->rel[i], sizeof out->rel[i], "%s", rel[i]);
        }
        if (!rc)
            out->nargs = eb->nfiles;
        free(rel);
    }
    free(eb);
    free(pk);
    free(e);
    return rc;
}

int sched_program_digest(const char *name, const char *command, const char *files, const char *dir,
                         char digest[65], char *err, size_t errlen)
{
    sched_packed *p = malloc(sizeof *p);
    if (!p)
        return ARB_ENOMEM;
    int rc = sched_program_pack(name, command, files, dir, p, err, errlen);
    snprintf(digest, 65, "%s", rc ? "" : p->digest);
    free(p->bundle);
    free(p);
    return rc;
}

/* What the entrant declared beside its command (startup_ms:, env:), into
 * its bot: checked again, since a ladder's entries come from the record. */
static int declared(entrant_bot *eb, const tn_entrant *e, char *err, size_t errlen)
{
    char why[256];
    eb->bot.startup_ms = e->startup_ms;
    if (match_env_set(&eb->bot, e->env, why, sizeof why) != 0) {
        snprintf(err, errlen, "entrant %s: env: %s", e->name, why);
        return ARB_EINVAL;
    }
    return 0;
}

int sched__entrant_bot(sched *s, entrant_bot *eb, const tn_entrant *e, const char *base, const char *root,
                       char *err, size_t errlen)
{
    packing *pk = calloc(1, sizeof *pk);
    if (!pk)
        return ARB_ENOMEM;
    int rc = tree_of(e, base, root, pk, err, errlen);
    if (!rc && pk->tree[0])
        rc = pack_tree(s, eb, e, base, pk, err, errlen);
    else if (!rc) {
        rc = match_bot_command(&eb->bot, e->name, e->command, base, err, errlen);
        if (!rc)
            rc = collect(eb, e, base, root, pk, err, errlen);
        if (!rc)
            rc = pack(s, eb, pk, err, errlen);
    }
    if (!rc)   /* its start-up budget and variables, whichever way its program came */
        rc = declared(eb, e, err, errlen);
    free(pk);
    return rc;
}

/* The program of that digest registered for fetches: *p is the new entry
 * (its files to be filled), or NULL when it was there already. */
static int add_program(sched *s, const char *digest, program **p, char *err, size_t errlen)
{
    *p = NULL;
    for (int i = 0; i < s->nprogs; i++)
        if (strcmp(s->progs[i].digest, digest) == 0)
            return 0;
    if (s->nprogs == ARB_POOL_MAX_PROGRAMS) {
        snprintf(err, errlen, "more than %d distinct programs", ARB_POOL_MAX_PROGRAMS);
        return ARB_ETOOBIG;
    }
    *p = &s->progs[s->nprogs++];
    memset(*p, 0, sizeof **p);
    snprintf((*p)->digest, sizeof (*p)->digest, "%s", digest);
    return 0;
}

static int pack(sched *s, entrant_bot *eb, packing *pk, char *err, size_t errlen)
{
    const char **files = pk->files;
    int nall = pk->nall;
    if (nall == 0)
        return 0;
    uint8_t *b;
    size_t len;
    char rel[ARB_MAX_BOT_ARGS + ARB_BUNDLE_MAX_FILES][ARB_BUNDLE_MAX_PATH + 1];
    int rc = bundle_build(files, nall, &b, &len, eb->digest, rel, err, errlen);
    if (rc)
        return rc;
    for (int i = 0; i < eb->nfiles; i++)   /* where each argument lies in the bundle */
        snprintf(eb->rel[i], sizeof eb->rel[i], "%.255s", rel[i]);
    program *p = NULL;
    rc = add_program(s, eb->digest, &p, err, errlen);
    /* new to this run: into the record before any match plays it (the
     * record, not these files, is what a rerun reads) */
    if (rc == 0 && p && s->o.db) {
        rc = store_program_put(s->o.db, eb->digest, b, len, err, errlen);
        if (rc)   /* not known until the record has it: the next start puts it again */
            s->nprogs--;
    }
    free(b);
    if (rc || !p)
        return rc;
    p->files = calloc((size_t)nall, sizeof *p->files);
    if (!p->files)
        return ARB_ENOMEM;
    for (int i = 0; i < nall; i++)
        snprintf(p->files[i], sizeof p->files[i], "%s", files[i]);
    p->nfiles = nall;
    return 0;
}

/* A program given as a tree (a directory or an archive): packed whole,
 * put in the record, unpacked into the local worker's program cache (what
 * plays here is the bundle, as on any other host), the command's words
 * that name its files pointed there. */
static int pack_tree(sched *s, entrant_bot *eb, const tn_entrant *e, const char *base, packing *pk, char *err,
                     size_t errlen)
{
    uint8_t *b;
    size_t len;
    char why[1024], cache[800];
    int rc = tree_bundle(pk->tree, pk->archive, &b, &len, eb->digest, why, sizeof why);
    if (rc) {
        snprintf(err, errlen, "entrant %s: files: %s", e->name, why);
        return rc;
    }
    rc = map_words(eb, e, b, len, err, errlen);
    snprintf(cache, sizeof cache, "%s/programs", s->wdir);
    if (!rc && (rc = bundle_unpack(b, len, eb->digest, cache, why, sizeof why)) != 0)
        snprintf(err, errlen, "entrant %s: its program: %s", e->name, why);
    if (!rc)
        rc = bot_in_cache(eb, e, cache, eb->digest, base, err, errlen);
    program *p = NULL;
    if (!rc)
        rc = add_program(s, eb->digest, &p, err, errlen);
    if (rc == 0 && p && s->o.db) {
        rc = store_program_put(s->o.db, eb->digest, b, len, err, errlen);
        if (rc)
            s->nprogs--;
    }
    free(b);
    if (rc == 0 && p) {   /* served again from the tree when there is no record */
        p->tree = strdup(pk->tree);
        p->archive = pk->archive;
        if (!p->tree)
            rc = ARB_ENOMEM;
    }
    return rc;
}

/* A worker asks for a program of the running set (no other: the record
 * holds every tournament's): read from the record, checked against its
 * digest there. Only a program the record lacks is packed again from its
 * files, and sent only if it is still what the digest names (a file
 * changed since is refused, not shipped under an old name). */
void sched__serve_program(sched *s, const sender *from, const char *digest)
{
    uint8_t *b = NULL, *frame;
    size_t len = 0, flen;
    char err[512] = "unknown digest", got[65] = "";
    for (int i = 0; i < s->nprogs; i++) {
        if (strcmp(s->progs[i].digest, digest) != 0)
            continue;
        int found = s->o.db ? store_program_get(s->o.db, digest, &b, &len, err, sizeof err) : 0;
        if (found == 0 && s->progs[i].tree) {   /* a directory or archive, packed again */
            if (tree_bundle(s->progs[i].tree, s->progs[i].archive, &b, &len, got, err, sizeof err) == 0
                && strcmp(got, digest) != 0) {
                snprintf(err, sizeof err, "the program's files changed since the tournament started");
                free(b);
                b = NULL;
            }
            break;
        }
        if (found != 0 || s->progs[i].nfiles == 0)
            break;   /* from the record, or its error (a corrupt row is not papered over) */
        const char *files[ARB_MAX_BOT_ARGS + ARB_BUNDLE_MAX_FILES];
        char rel[ARB_MAX_BOT_ARGS + ARB_BUNDLE_MAX_FILES][ARB_BUNDLE_MAX_PATH + 1];
        for (int k = 0; k < s->progs[i].nfiles; k++)
            files[k] = s->progs[i].files[k];
        if (bundle_build(files, s->progs[i].nfiles, &b, &len, got, rel, err, sizeof err) == 0
            && strcmp(got, digest) != 0) {
            snprintf(err, sizeof err, "the program's files changed since the tournament started");
            free(b);
            b = NULL;
        }
        break;
    }
    if (wire_program_msg(digest, b, len, b ? NULL : err, &frame, &flen) == 0) {
        sched__send_to(s, from->rid, from->ridlen, frame, flen);
        atomic_fetch_add(&s->st.programs_served, 1);
        arb_info(SUB, "program %.12s to %s: %s", digest, from->id, b ? "sent" : err);
    }
    free(b);
}

int sched__record_program(sched *s, int64_t tid, int idx, const entrant_bot *eb, char *err, size_t errlen)
{
    if (!eb->digest[0] || !s->o.db)
        return 0;   /* nothing of its own to pack: the system's programs only */
    store_entrant_prog *rec = calloc(1, sizeof *rec);
    if (!rec)
        return ARB_ENOMEM;
    snprintf(rec->digest, sizeof rec->digest, "%s", eb->digest);
    rec->nfiles = eb->nfiles;
    for (int k = 0; k < eb->nfiles; k++) {
        rec->argi[k] = eb->argi[k];
        snprintf(rec->path[k], sizeof rec->path[k], "%s", eb->rel[k]);
    }
    int rc = store_entrant_program_put(s->o.db, tid, idx, rec, err, errlen);
    free(rec);
    return rc;
}

/* Entrant e plays its recorded program rec: the bundle from the record,
 * unpacked (checked against its digest, every path confined,
 * bundle_unpack) into the local worker's program cache, and the command's
 * file arguments pointed there (a remote worker fetches the same bundle
 * and points them into its own cache). */
int sched__from_record(sched *s, entrant_bot *eb, const tn_entrant *e, const char *base,
                       const store_entrant_prog *rec, char *err, size_t errlen)
{
    uint8_t *b = NULL;
    size_t len = 0;
    char why[512], cache[800];
    int rc = store_program_get(s->o.db, rec->digest, &b, &len, why, sizeof why);
    if (rc != 1) {
        snprintf(err, errlen, "entrant %s: its files are gone or changed and %s", e->name,
                 rc == 0 ? "its recorded program is not in the record" : why);
        return rc == 0 ? ARB_ENOTFOUND : rc;
    }
    snprintf(cache, sizeof cache, "%s/programs", s->wdir);
    rc = bundle_unpack(b, len, rec->digest, cache, why, sizeof why);
    free(b);
    if (rc) {
        snprintf(err, errlen, "entrant %s: its recorded program: %s", e->name, why);
        return rc;
    }
    /* the command with each recorded file argument replaced by the file
     * unpacked: the same words otherwise (the configuration is the one
     * recorded: its digest was checked) */
    char words[ARB_TN_MAX_COMMAND], cmd[4096], *save = NULL;
    size_t used = 0;
    int n = 0, placed = 0;
    snprintf(words, sizeof words, "%s", e->command);
    cmd[0] = 0;
    for (char *tok = strtok_r(words, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save), n++) {
        int k = 0;
        while (k < rec->nfiles && rec->argi[k] != n)
            k++;
        if (k < rec->nfiles)
            placed++;
        if (used < sizeof cmd)
            used += k < rec->nfiles
                        ? (size_t)snprintf(cmd + used, sizeof cmd - used, "%s%s/%s/%s", n ? " " : "", cache,
                                           rec->digest, rec->path[k])
                        : (size_t)snprintf(cmd + used, sizeof cmd - used, "%s%s", n ? " " : "", tok);
    }
    if (placed != rec->nfiles || used >= sizeof cmd || strpbrk(cache, " \t")) {
        snprintf(err, errlen, "entrant %s: its recorded program does not fit its command (%d of %d files placed%s)",
                 e->name, placed, rec->nfiles, used >= sizeof cmd ? ", too long" : "");
        return ARB_ECORRUPT;
    }
    /* a registered entrant's relative words are its bundle's, never the
     * tournament directory's */
    char own[900];
    snprintf(own, sizeof own, "%s/%s", cache, rec->digest);
    rc = match_bot_command(&eb->bot, e->name, cmd, e->registered ? own : base, err, errlen);
    if (!rc)
        rc = declared(eb, e, err, errlen);
    if (rc)
        return rc;
    eb->nfiles = rec->nfiles;
    for (int k = 0; k < rec->nfiles; k++) {
        eb->argi[k] = rec->argi[k];
        snprintf(eb->rel[k], sizeof eb->rel[k], "%s", rec->path[k]);
        /* as unpacked, not resolved: a venv's bin/python link stays itself */
        char *arg = eb->bot.argv[rec->argi[k]];
        if ((size_t)snprintf(arg, sizeof eb->bot.argv[0], "%s/%s/", cache, rec->digest) + strlen(rec->path[k])
            >= sizeof eb->bot.argv[0]) {
            snprintf(err, errlen, "entrant %s: its program's path in the cache is too long", e->name);
            return ARB_ETOOBIG;
        }
        strncat(arg, rec->path[k], sizeof eb->bot.argv[0] - strlen(arg) - 1);
    }
    snprintf(eb->digest, sizeof eb->digest, "%s", rec->digest);
    program *p;
    return add_program(s, rec->digest, &p, err, errlen);   /* served from the record */
}

int sched__load_bots(sched *s, tour *t, char *err, size_t errlen)
{
    const tn_config *cfg = t->o.cfg;
    char dirbuf[512], base[800];
    snprintf(dirbuf, sizeof dirbuf, "%s", cfg->path);
    snprintf(base, sizeof base, "%s", dirname(dirbuf));
    if (cfg->submitted) {
        /* a file that came over the API has no directory: its entrants'
         * words are looked up in an empty one of the scheduler's, so that
         * none names a file of the host (the loader refused any with a /) */
        snprintf(base, sizeof base, "%s/submitted-empty", s->wdir);
        if (mkdir(base, 0700) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "%s: %s", base, strerror(errno));
            return ARB_EIO;
        }
    }
    t->bots = calloc((size_t)cfg->nentrants + 1, sizeof *t->bots);
    store_entrant_prog *rec = calloc(1, sizeof *rec);
    int rc = t->bots && rec ? 0 : ARB_ENOMEM;
    if (rc)
        goto out;
    t->nbots = cfg->nentrants;
    for (int i = 0; i < cfg->nentrants && rc == 0; i++) {
        const tn_entrant *e = &cfg->entrants[i];
        entrant_bot *eb = &t->bots[i];
        /* A ladder's entries are checked against their digest as they
         * join (ladder_run.c); a tournament plays what it recorded. */
        int got = s->o.db && cfg->format != TN_LADDER ? store_entrant_program_get(s->o.db, t->tid, i, rec, err, errlen)
                                                      : 0;
        if (got < 0) {
            rc = got;
            break;
        }
        if (e->registered) {   /* it plays what it uploaded, from the record, never the host's files */
            rc = got == 1 ? sched__from_record(s, eb, e, base, rec, err, errlen) : ARB_ENOTFOUND;
            if (got != 1)
                snprintf(err, errlen, "entrant %s: registered, and its program is not in the record", e->name);
            continue;
        }
        char why[1024] = "";
        rc = sched__entrant_bot(s, eb, e, base, cfg->files_root, got ? why : err, got ? sizeof why : errlen);
        if (got && (rc != 0 || strcmp(eb->digest, rec->digest) != 0)) {
            char note[1400];
            snprintf(note, sizeof note, "entrant %s: %s%s: its recorded program %.12s plays", e->name,
                     rc ? "its files cannot be packed: " : "its files changed since the tournament started",
                     rc ? why : "", rec->digest);
            arb_warn(SUB, "tournament %s (%" PRId64 "): %s", cfg->name, t->tid, note);
            memset(eb, 0, sizeof *eb);
            rc = sched__from_record(s, eb, e, base, rec, err, errlen);
            if (rc == 0)
                store_event(s->o.db, t->tid, "program", note);
        } else if (rc == 0) {
            rc = sched__record_program(s, t->tid, i, eb, err, errlen);
        }
    }
out:
    free(rec);
    return rc;
}
