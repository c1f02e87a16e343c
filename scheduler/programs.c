/* programs.c — entrants' programs for workers on other hosts (sched_int.h):
 * the files of each bot's command packed into a bundle named by its
 * digest, and a bundle served again to a worker that fetches it. */
#include "sched_int.h"
#include "bundle.h"
#include "arb_error.h"
#include "arb_log.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *SUB = SCHED_SUB;

/* The files of a bot's command that a worker elsewhere needs: every
 * argument naming a regular file outside the system's directories (the
 * program, a script), packed into a bundle named by its digest. */
typedef struct packing packing;
static int pack(sched *s, entrant_bot *eb, packing *pk, char *err, size_t errlen);

struct packing {
    const char *files[ARB_MAX_BOT_ARGS + ARB_BUNDLE_MAX_FILES];
    char extra[ARB_BUNDLE_MAX_FILES][4096], args[ARB_MAX_BOT_ARGS][4096];
    int  nall;
};

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

int sched_program_digest(const char *name, const char *command, const char *files, const char *dir,
                         char digest[65], char *err, size_t errlen)
{
    entrant_bot *eb = calloc(1, sizeof *eb);
    packing *pk = calloc(1, sizeof *pk);
    tn_entrant *e = calloc(1, sizeof *e);
    int rc = eb && pk && e ? 0 : ARB_ENOMEM;
    digest[0] = 0;
    if (!rc) {
        snprintf(e->name, sizeof e->name, "%s", name);
        snprintf(e->command, sizeof e->command, "%s", command);
        snprintf(e->files, sizeof e->files, "%s", files ? files : "");
        rc = match_bot_command(&eb->bot, name, command, dir, err, errlen);
    }
    if (!rc)
        rc = collect(eb, e, dir, dir, pk, err, errlen);
    if (!rc && pk->nall > 0) {
        uint8_t *b;
        size_t len;
        char rel[ARB_MAX_BOT_ARGS + ARB_BUNDLE_MAX_FILES][ARB_BUNDLE_MAX_PATH + 1];
        rc = bundle_build(pk->files, pk->nall, &b, &len, digest, rel, err, errlen);
        if (!rc)
            free(b);
    }
    free(eb);
    free(pk);
    free(e);
    return rc;
}

int sched__entrant_bot(sched *s, entrant_bot *eb, const tn_entrant *e, const char *base, const char *root,
                       char *err, size_t errlen)
{
    packing *pk = calloc(1, sizeof *pk);
    if (!pk)
        return ARB_ENOMEM;
    int rc = match_bot_command(&eb->bot, e->name, e->command, base, err, errlen);
    if (!rc)
        rc = collect(eb, e, base, root, pk, err, errlen);
    if (!rc)
        rc = pack(s, eb, pk, err, errlen);
    free(pk);
    return rc;
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
    free(b);
    for (int i = 0; i < eb->nfiles; i++)   /* where each argument lies in the bundle */
        snprintf(eb->rel[i], sizeof eb->rel[i], "%.255s", rel[i]);
    for (int i = 0; i < s->nprogs; i++)
        if (strcmp(s->progs[i].digest, eb->digest) == 0)
            return 0;
    if (s->nprogs == ARB_POOL_MAX_PROGRAMS) {
        snprintf(err, errlen, "more than %d distinct programs", ARB_POOL_MAX_PROGRAMS);
        return ARB_ETOOBIG;
    }
    program *p = &s->progs[s->nprogs];
    p->files = calloc((size_t)nall, sizeof *p->files);
    if (!p->files)
        return ARB_ENOMEM;
    for (int i = 0; i < nall; i++)
        snprintf(p->files[i], sizeof p->files[i], "%s", files[i]);
    p->nfiles = nall;
    snprintf(p->digest, sizeof p->digest, "%s", eb->digest);
    s->nprogs++;
    return 0;
}

/* A worker asks for a program: packed again from its files, and sent only
 * if it is still what the digest names (a file changed since is refused,
 * not shipped under an old name). */
void sched__serve_program(sched *s, const sender *from, const char *digest)
{
    uint8_t *b = NULL, *frame;
    size_t len = 0, flen;
    char err[512] = "unknown digest", got[65] = "";
    for (int i = 0; i < s->nprogs; i++) {
        if (strcmp(s->progs[i].digest, digest) != 0)
            continue;
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

int sched__load_bots(sched *s, tour *t, char *err, size_t errlen)
{
    const tn_config *cfg = t->o.cfg;
    char dirbuf[512], base[512];
    snprintf(dirbuf, sizeof dirbuf, "%s", cfg->path);
    snprintf(base, sizeof base, "%s", dirname(dirbuf));
    t->bots = calloc((size_t)cfg->nentrants + 1, sizeof *t->bots);
    if (!t->bots)
        return ARB_ENOMEM;
    t->nbots = cfg->nentrants;
    for (int i = 0; i < cfg->nentrants; i++) {
        int rc = sched__entrant_bot(s, &t->bots[i], &cfg->entrants[i], base, cfg->files_root, err, errlen);
        if (rc)
            return rc;
    }
    return 0;
}
