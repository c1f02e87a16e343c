/* arb_log.c — leveled logging, JSON lines or text, one write(2) per line. */
#include "arb_log.h"
#include "arb_error.h"
#include "arb_limits.h"
#include "arb_time.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Process-wide settings, set once at start-up (STYLE.md: the only globals
 * besides signal flags). */
static arb_log_level log_min = ARB_LOG_INFO;
static arb_log_format log_format = ARB_LOG_JSON;

static const char *const level_names[] = {"debug", "info", "warn", "error", "off"};

void arb_log_setup(arb_log_level min_level, arb_log_format format)
{
    log_min = min_level;
    log_format = format;
}

int arb_log_level_parse(const char *text, arb_log_level *out)
{
    for (int i = 0; i <= ARB_LOG_OFF; i++)
        if (strcasecmp(text, level_names[i]) == 0) {
            *out = (arb_log_level)i;
            return 0;
        }
    return ARB_EINVAL;
}

/* Append s to out[*n..cap) as a JSON string body. */
static void json_escape(char *out, size_t *n, size_t cap, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    for (; *s && *n + 7 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            out[(*n)++] = '\\';
            out[(*n)++] = (char)c;
        } else if (c == '\n') {
            out[(*n)++] = '\\';
            out[(*n)++] = 'n';
        } else if (c < 0x20) {
            memcpy(out + *n, "\\u00", 4);
            *n += 4;
            out[(*n)++] = hex[c >> 4];
            out[(*n)++] = hex[c & 15];
        } else {
            out[(*n)++] = (char)c;
        }
    }
}

void arb_log(arb_log_level level, const char *sub, const char *fmt, ...)
{
    if (level < log_min || level >= ARB_LOG_OFF)
        return;
    char msg[ARB_MAX_LINE], line[2 * ARB_MAX_LINE], ts[32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    arb_wall_iso8601(ts, sizeof ts);
    size_t n = 0;
    if (log_format == ARB_LOG_JSON) {
        n = (size_t)snprintf(line, sizeof line, "{\"ts\":\"%s\",\"level\":\"%s\",\"sub\":\"", ts, level_names[level]);
        json_escape(line, &n, sizeof line, sub);
        memcpy(line + n, "\",\"msg\":\"", 9);
        n += 9;
        json_escape(line, &n, sizeof line, msg);
        memcpy(line + n, "\"}\n", 3);
        n += 3;
    } else {
        int w = snprintf(line, sizeof line, "%s %-5s %s: %s\n", ts, level_names[level], sub, msg);
        n = w < 0 ? 0 : (size_t)w < sizeof line ? (size_t)w : sizeof line - 1;
    }
    ssize_t rc = write(2, line, n);
    (void)rc;
}
