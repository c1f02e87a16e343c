/* fuzz_rate.c — libFuzzer target for `arbiter rate --system openskill`'s
 * reader (cli/cmd_rate.c), which takes result lines from anyone who wants
 * to compare ratings. The input is the stdin, rated with each model twice.
 * Either a refusal — exit 1, one line "arbiter: rate: <stdin>:LINE: ..."
 * (or out of memory) on err, nothing on out — or a success: nothing on
 * err, lines `NAME MU SIGMA` with names strictly increasing bytewise, each
 * sigma a positive number; the second run prints the same bytes. Any
 * broken rule is an abort(). */
#include "cli.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MUST(cond) do { if (!(cond)) abort(); } while (0)

static int run(wl_model model, const uint8_t *data, size_t size, char **out, size_t *nout, char **err, size_t *nerr)
{
    /* fmemopen refuses a zero size: an empty input is a one-byte buffer
     * read to its end first */
    static const uint8_t none[1];
    FILE *in = fmemopen((void *)(size ? data : none), size ? size : 1, "r");
    MUST(in);
    if (!size)
        (void)getc(in);
    FILE *o = open_memstream(out, nout), *e = open_memstream(err, nerr);
    MUST(o && e);
    int rc = rate_openskill(model, in, o, e);
    fclose(in);
    fclose(o);
    fclose(e);
    return rc;
}

static void check_output(const char *out, size_t n)
{
    const char *prev = NULL;
    size_t prev_len = 0;
    for (const char *s = out; s < out + n;) {
        const char *nl = memchr(s, '\n', (size_t)(out + n - s));
        MUST(nl);
        const char *sp = memchr(s, ' ', (size_t)(nl - s));
        MUST(sp && sp > s);
        size_t len = (size_t)(sp - s);
        if (prev) {
            int c = memcmp(prev, s, prev_len < len ? prev_len : len);
            MUST(c < 0 || (c == 0 && prev_len < len));
        }
        char *end;
        (void)strtod(sp + 1, &end);
        MUST(*end == ' ');
        double sigma = strtod(end + 1, &end);
        MUST(end == nl && sigma > 0);
        prev = s;
        prev_len = len;
        s = nl + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (int m = 0; m < WL_NMODELS; m++) {
        char *out1, *out2, *err1, *err2;
        size_t nout1, nout2, nerr1, nerr2;
        int rc = run((wl_model)m, data, size, &out1, &nout1, &err1, &nerr1);
        MUST(rc == CLI_EXIT_OK || rc == CLI_EXIT_FAIL);
        if (rc == CLI_EXIT_FAIL) {
            MUST(nout1 == 0 && nerr1 > 0 && strncmp(err1, "arbiter: rate: ", 15) == 0);
            MUST(memchr(err1, '\n', nerr1) == err1 + nerr1 - 1);
        } else {
            MUST(nerr1 == 0);
            check_output(out1, nout1);
        }
        MUST(run((wl_model)m, data, size, &out2, &nout2, &err2, &nerr2) == rc);
        MUST(nout1 == nout2 && memcmp(out1, out2, nout1) == 0);
        free(out1);
        free(out2);
        free(err1);
        free(err2);
    }
    return 0;
}
