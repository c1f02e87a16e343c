/* bot_ends.c — how a transcript says each bot's processes ended (its
 * botend records: wait status and the stderr the referee kept), for
 * `arbiter replay --stderr` and `arbiter dispute show` (cli.h). */
#include "cli.h"
#include "arb_buf.h"
#include "arb_error.h"
#include "arb_text.h"
#include "transcript.h"
#include "arb_mp.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

void cli_bot_told_end(int type, const uint8_t *rec, size_t n, bool *told)
{
    arb_mp r;
    uint32_t cnt, len;
    uint64_t ty, t;
    int64_t bot;
    const char *line;
    if (type != TR_SEND && type != TR_BOTEND)
        return;
    arb_mp_init(&r, rec, n);
    if (arb_mp_array(&r, &cnt) || cnt < 3 || arb_mp_uint(&r, &ty) || arb_mp_uint(&r, &t) || arb_mp_int(&r, &bot)
        || bot < 0 || bot >= ARB_MAX_SEATS)
        return;
    if (type == TR_BOTEND)
        told[bot] = false;
    else if (cnt == 4 && arb_mp_str(&r, &line, &len) == 0 && len >= 3 && memcmp(line, "end", 3) == 0
             && (len == 3 || line[3] == ' '))
        told[bot] = true;
}

/* The reason of the referee's last "arbiter: killed: " note in err, up to
 * its line's end (NULL: none), its length in *len. */
static const char *kill_note(const char *err, size_t errlen, size_t *len)
{
    static const char tag[] = "arbiter: killed: ";
    const char *found = NULL;
    for (size_t i = 0; i + sizeof tag - 1 <= errlen; i++)
        if (memcmp(err + i, tag, sizeof tag - 1) == 0)
            found = err + i + sizeof tag - 1;
    if (!found)
        return NULL;
    const char *end = memchr(found, '\n', errlen - (size_t)(found - err));
    *len = end ? (size_t)(end - found) : errlen - (size_t)(found - err);
    return found;
}

void cli_bot_end_words(const tr_botend *be, bool told, char *buf, size_t cap)
{
    size_t nlen = 0;
    const char *note = NULL;
    if (be->status >= 0 && WIFSIGNALED(be->status) && WTERMSIG(be->status) == SIGKILL)
        note = kill_note(be->err, be->err_len, &nlen);
    if (note) {
        char why[CLI_BOT_END_WORDS - 64];   /* the note escaped: each byte at most 4 */
        arb_escape_term(note, nlen < sizeof why / 4 ? nlen : sizeof why / 4 - 1, why, sizeof why, 0);
        snprintf(buf, cap, "killed by the referee (SIGKILL): %s", why);
    } else if (be->status >= 0 && WIFSIGNALED(be->status) && WTERMSIG(be->status) == SIGKILL && told) {
        snprintf(buf, cap, "still running at the match's end: stopped by the referee (SIGKILL) after \"end\"");
    } else {
        char words[64];
        tr_status_text(be->status, words, sizeof words);
        snprintf(buf, cap, "%s%s", words, told && be->status >= 0 && WIFEXITED(be->status) ? " after \"end\"" : "");
    }
}

int cli_tr_json(int type, const uint8_t *rec, size_t n, const bool *told, arb_buf *out)
{
    size_t start = out->len;
    int rc = tr_json(rec, n, out);
    tr_botend be;
    if (rc || type != TR_BOTEND || tr_read_botend(rec, n, &be) != 0 || out->len == start
        || out->data[out->len - 1] != '}')
        return rc;
    char words[CLI_BOT_END_WORDS];
    cli_bot_end_words(&be, be.bot >= 0 && be.bot < ARB_MAX_SEATS && told[be.bot], words, sizeof words);
    out->len--;   /* the closing brace: "ended" goes before it */
    return arb_buf_puts(out, ",\"ended\":") || arb_json_str(out, words, strlen(words)) || arb_buf_putc(out, '}')
               ? ARB_ETOOBIG : 0;
}

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
    if (type != TR_BOTEND) {
        cli_bot_told_end(type, rec, n, c->told_end);
        return 0;
    }
    if (tr_read_botend(rec, n, &be) != 0)
        return ARB_ECORRUPT;
    bool told = be.bot >= 0 && be.bot < ARB_MAX_SEATS && c->told_end[be.bot];
    cli_bot_told_end(type, rec, n, c->told_end);
    c->last_status[be.bot] = be.status;
    if (be.bot != c->bot)
        return 0;
    c->processes++;
    char words[CLI_BOT_END_WORDS];
    cli_bot_end_words(&be, told, words, sizeof words);
    return c->json ? show_json(c, &be, words) : show_text(c, &be, words);
}

int cli_bot_ends_walk(const uint8_t *data, size_t len, cli_bot_ends *c)
{
    c->processes = 0;
    for (int b = 0; b < ARB_MAX_SEATS; b++) {
        c->last_status[b] = -1;
        c->told_end[b] = false;
    }
    return tr_each(data, len, each, c);
}
