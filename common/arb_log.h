/* arb_log.h — leveled logging: one JSON object per line on stderr (default) or
 * plain text for a terminal. Library code (games/, common/) never logs; it
 * returns errors. Daemons and the CLI log. */
#ifndef ARB_LOG_H
#define ARB_LOG_H

typedef enum arb_log_level {
    ARB_LOG_DEBUG = 0,
    ARB_LOG_INFO  = 1,
    ARB_LOG_WARN  = 2,
    ARB_LOG_ERROR = 3,
    ARB_LOG_OFF   = 4,
} arb_log_level;

typedef enum arb_log_format {
    ARB_LOG_JSON  = 0,  /* {"ts":"2026-11-22T10:00:00.123Z","level":"info","sub":"referee","msg":"..."} */
    ARB_LOG_TEXT  = 1,  /* 2026-11-22T10:00:00.123Z info  referee: ... */
} arb_log_format;

/* Process-wide settings; call once at start-up (not thread-safe to change). */
void arb_log_setup(arb_log_level min_level, arb_log_format format);
/* Parse "debug|info|warn|error|off"; returns 0 or ARB_EINVAL. */
int arb_log_level_parse(const char *text, arb_log_level *out);

/* Log one line. `sub` is the subsystem ("scheduler", "seat", ...). The message
 * is escaped for JSON; it is truncated at ARB_MAX_LINE bytes. Thread-safe: the
 * line is written with a single write(2). */
void arb_log(arb_log_level level, const char *sub, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define arb_debug(sub, ...) arb_log(ARB_LOG_DEBUG, sub, __VA_ARGS__)
#define arb_info(sub, ...)  arb_log(ARB_LOG_INFO,  sub, __VA_ARGS__)
#define arb_warn(sub, ...)  arb_log(ARB_LOG_WARN,  sub, __VA_ARGS__)
#define arb_error(sub, ...) arb_log(ARB_LOG_ERROR, sub, __VA_ARGS__)

#endif
