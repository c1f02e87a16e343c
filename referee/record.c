/* record.c — a match played into a transcript (record.h). */
#include "record.h"
#include "transcript_writer.h"
#include "arb_error.h"
#include "arb_sign.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int record_match(const char *path, const match_config *cfg, const match_driver *drv,
                 const match_observer *obs, match_result *res, char digest[65])
{
    return record_match_signed(path, cfg, drv, obs, NULL, res, digest, NULL);
}

/* The match played into w (opened on shown: the path for messages). */
static int record_into(tr_writer *w, int rc, const char *shown, const match_config *cfg, const match_driver *drv,
                       const match_observer *obs, const arb_sign_key *key, match_result *res, char digest[65],
                       uint8_t *sig)
{
    digest[0] = 0;
    shown = shown ? shown : "-";
    if (!w) {
        int e = errno;
        memset(res, 0, sizeof *res);
        snprintf(res->error, sizeof res->error, "transcript %.400s: %s", shown,
                 rc == ARB_EIO || rc == ARB_EDISKFULL ? strerror(e) : arb_strerror(rc));
        return rc;
    }
    match_sink sink = tr_writer_sink(w);
    rc = match_run(cfg, drv, &sink, obs, res);
    int crc = tr_writer_close_signed(w, key, digest, sig);
    int e = errno;
    /* a write that failed is the transcript's error, with its cause, even
     * when the match stopped on it first (the sink refused a record) */
    if (crc && (!rc || crc == ARB_EIO || crc == ARB_EDISKFULL)) {
        rc = crc;
        snprintf(res->error, sizeof res->error, "transcript %.400s: %s", shown,
                 crc == ARB_EIO || crc == ARB_EDISKFULL ? strerror(e) : arb_strerror(crc));
    }
    return rc;
}

int record_match_signed(const char *path, const match_config *cfg, const match_driver *drv,
                        const match_observer *obs, const arb_sign_key *key, match_result *res,
                        char digest[65], uint8_t *sig)
{
    int rc;
    tr_writer *w = tr_writer_open(path, &rc);
    return record_into(w, rc, path, cfg, drv, obs, key, res, digest, sig);
}

int record_match_fd(int fd, const char *shown, const match_config *cfg, const match_driver *drv,
                    const match_observer *obs, match_result *res, char digest[65])
{
    int rc;
    tr_writer *w = tr_writer_open_fd(fd, &rc);
    return record_into(w, rc, shown, cfg, drv, obs, NULL, res, digest, NULL);
}
