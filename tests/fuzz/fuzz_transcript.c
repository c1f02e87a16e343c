/* fuzz_transcript.c — libFuzzer target: a transcript from an untrusted
 * source (a disputed match's file) read, described, digest-checked and
 * re-judged. Nothing may crash, hang or read out of bounds, whatever the
 * bytes claim; big matches are skipped to keep each input fast. */
#include "replay.h"
#include "transcript.h"

#include <stdint.h>
#include <stdlib.h>

static int describe(void *ctx, int type, const uint8_t *rec, size_t n)
{
    (void)ctx; (void)type;
    char text[512];
    tr_describe(rec, n, text, sizeof text);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char hex[65], err[256];
    tr_check_digest(data, size, hex, err, sizeof err);
    tr_each(data, size, describe, NULL);
    match_config cfg;
    if (tr_read_header(data, size, &cfg, err, sizeof err) != 0)
        return 0;
    if (cfg.deals > 4 || cfg.duplicate == MATCH_DUP_ALL)
        return 0;
    replay_report rep;
    if (replay_judge(data, size, NULL, &rep) == 0)
        match_result_release(&rep.res);
    return 0;
}
