/* bot_ends.c — how a transcript says each bot's processes ended (its
 * botend records: wait status and the stderr the referee kept), for
 * `arbiter replay --stderr` and `arbiter dispute show` (cli.h). */
#include "cli.h"
#include "arb_buf.h"
#include "arb_error.h"
#include "arb_text.h"
#include "transcript.h"

#include <stdlib.h>
#include <string.h>

/* The last tail bytes of err (from a character's first byte), or all. */
static size_t tail_start(const char *err, size_t len, size_t tail)
{
    if (!tail || len <= tail)
        return 0;
    size_t from = len - tail;
    while (from < len && ((unsigned char)err[from] & 0xc0) == 0x80)
        from++;
    return from;
}

static int show_text(const cli_bot_ends *c, const tr_botend *be, const char *words)
{
    const char *in = c->indent ? c->indent : "";
    char sandbox[128];
    arb_escape_term(be->sandbox, be->sandbox_len, sandbox, sizeof sandbox, 0);
    size_t from = tail_start(be->err, be->err_len, c->tail);
    printf("%s--- process %d (sandbox %s): %s; %zu bytes of stderr kept%s", in, c->processes, sandbox, words,
           be->err_len, be->err_len >= ARB_STDERR_CAP ? " (the first ARB_STDERR_CAP: the rest was dropped)" : "");
    if (from)
        printf("; the last %zu shown", be->err_len - from);
    printf("\n");
    /* the bytes as a terminal may show them, newlines kept */
    size_t n = be->err_len - from, cap = n * 4 + 1;
    char *text = malloc(cap);
    if (!text)
        return ARB_ENOMEM;
    arb_escape_term(be->err + from, n, text, cap, ARB_TERM_KEEP_NL);
    for (char *line = text, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl) {
            printf("%s%s\n", in, line);
            break;
        }
        printf("%s%.*s\n", in, (int)(nl - line), line);
    }
    free(text);
    return 0;
}

static int show_json(cli_bot_ends *c, const tr_botend *be, const char *words)
{
    arb_buf b;
    arb_buf_init(&b, ARB_STDERR_CAP * 6 + 4096);
    size_t from = tail_start(be->err, be->err_len, c->tail);
    int rc = arb_buf_printf(&b, "%s{\"bot\":%d,\"process\":%d,\"sandbox\":", c->objects ? "," : "", be->bot,
                            c->processes)
             || arb_json_str(&b, be->sandbox, be->sandbox_len) || arb_buf_puts(&b, ",\"status\":")
             || arb_json_str(&b, words, strlen(words))
             || arb_buf_printf(&b, ",\"stderr_bytes\":%zu,\"stderr\":", be->err_len)
             || arb_json_str(&b, be->err + from, be->err_len - from) || arb_buf_puts(&b, "}");
    if (!rc) {
        fputs(arb_buf_str(&b), stdout);
        c->objects++;
    }
    arb_buf_release(&b);
    return rc ? ARB_ENOMEM : 0;
}

static int each(void *ctx, int type, const uint8_t *rec, size_t n)
{
    cli_bot_ends *c = ctx;
    tr_botend be;
    if (type != TR_BOTEND)
        return 0;
    if (tr_read_botend(rec, n, &be) != 0)
        return ARB_ECORRUPT;
    c->last_status[be.bot] = be.status;
    if (be.bot != c->bot)
        return 0;
    c->processes++;
    char words[64];
    tr_status_text(be.status, words, sizeof words);
    return c->json ? show_json(c, &be, words) : show_text(c, &be, words);
}

int cli_bot_ends_walk(const uint8_t *data, size_t len, cli_bot_ends *c)
{
    c->processes = 0;
    for (int b = 0; b < ARB_MAX_SEATS; b++)
        c->last_status[b] = -1;
    return tr_each(data, len, each, c);
}
