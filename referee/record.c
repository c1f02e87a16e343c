/* record.c — a match played into a transcript (record.h). */
#include "record.h"
#include "transcript_writer.h"
#include "arb_error.h"

#include <stdio.h>
#include <string.h>

int record_match(const char *path, const match_config *cfg, const match_driver *drv,
                 const match_observer *obs, match_result *res, char digest[65])
{
    int rc;
    digest[0] = 0;
    tr_writer *w = tr_writer_open(path, &rc);
    if (!w) {
        memset(res, 0, sizeof *res);
        snprintf(res->error, sizeof res->error, "transcript %.400s: %s", path ? path : "-", arb_strerror(rc));
        return rc;
    }
    match_sink sink = tr_writer_sink(w);
    rc = match_run(cfg, drv, &sink, obs, res);
    int crc = tr_writer_close(w, digest);
    if (!rc && crc) {
        rc = crc;
        snprintf(res->error, sizeof res->error, "transcript %.400s: %s", path ? path : "-", arb_strerror(crc));
    }
    return rc;
}
