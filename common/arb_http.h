/* arb_http.h — the daemons' metrics endpoint: a tiny HTTP server
 * (a poll loop on a thread of its own, no HTTP library: the referee
 * serves it too) answering GET /metrics in Prometheus text format and
 * GET /healthz; nothing else. */
#ifndef ARB_HTTP_H
#define ARB_HTTP_H
#include <stddef.h>

#include "arb_limits.h"


typedef struct arb_http arb_http;

/* Render the metrics text into buf (at most cap bytes); return its length.
 * Called on the server's own thread: whatever it reads must be safe to read
 * from another thread (atomics, or a lock of the caller's). A length of cap
 * or more means the text did not fit (arb_prom leaves *off at cap then). */
typedef size_t (*arb_http_render)(void *ctx, char *buf, size_t cap);

/* Listen on "HOST:PORT", ":PORT" or "PORT" (PORT 0: any free port; HOST an
 * IPv4 address such as 127.0.0.1 or 0.0.0.0; without a HOST, 0.0.0.0 as
 * Prometheus exporters do). NULL and a message in err on failure (bad
 * address, port in use). The caller keeps ctx alive until arb_http_stop. */
arb_http *arb_http_start(const char *listen, arb_http_render render, void *ctx, char *err, size_t errlen);
int arb_http_port(const arb_http *h);   /* the port bound (useful with port 0) */
void arb_http_stop(arb_http *h);         /* NULL is fine; render is not called after it returns */

/* What another server (web/, on libmicrohttpd) shares with this one:
 * parse "HOST:PORT", ":PORT" or "PORT" as arb_http_start does (0, or -1
 * with a message naming the listen text), and the port a listening socket
 * is bound to (-1 when it cannot be read). */
struct sockaddr_in;
int arb_http_parse_listen(const char *listen, struct sockaddr_in *sa, char *err, size_t errlen);
int arb_http_socket_port(int fd);

/* Append one metric (HELP, TYPE and the sample) to buf at *off, bounded by
 * cap; `type` is "counter" or "gauge". Never writes past cap; *off stops at
 * cap when an entry does not fit (and everything after it is skipped), so
 * *off == cap after rendering means "too much". The text is NUL-terminated
 * while it fits. `name` is the caller's constant ([a-zA-Z_:][a-zA-Z0-9_:]*);
 * `help` is escaped as the format wants. */
void arb_prom(char *buf, size_t cap, size_t *off, const char *name, const char *type, const char *help, double value);
/* A sample line only, for the 2nd.. sample of a metric; labels may be NULL
 * or e.g. "worker=\"w1\"" (already escaped by the caller). */
void arb_prom_labeled(char *buf, size_t cap, size_t *off, const char *name, const char *labels, double value);
/* HELP and TYPE only, for a metric whose samples all carry labels (then
 * one arb_prom_labeled per sample). */
void arb_prom_head(char *buf, size_t cap, size_t *off, const char *name, const char *type, const char *help);

#endif
