/* crowd.h — a crowd of HTTP clients on one thread for `arbiter bench web
 * --crowd` (cmd_bench_crowd.c): nonblocking sockets under epoll, each
 * client a small state machine that connects (from its own loopback
 * address, 127.0.0.2..127.0.0.250, or from 127.0.0.1 as "a trusted proxy"
 * with an X-Forwarded-For header naming a visitor), asks for one route,
 * reads the answer whole (Content-Length, chunked, or to the close) and
 * asks again after a think time, on the same connection (keep-alive) or a
 * new one. Three kinds of client: requesters (routes drawn by weight),
 * live streams (kept open, their events counted, opened again when the
 * server ends one) and slow clients (the request's headers one byte a
 * second: the server should cut them). Every request is accounted for: by
 * its status, or "none" when the connection closed (or the run ended)
 * with no HTTP status. Only loopback is ever a target. */
#ifndef ARB_CROWD_H
#define ARB_CROWD_H

#include "arb_limits.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Answers by status: the classes printed. */
enum { CROWD_200, CROWD_304, CROWD_429, CROWD_503, CROWD_OTHER, CROWD_NONE, CROWD_NCLASSES };

typedef enum crowd_kind {
    CROWD_GET,      /* a request; its answer read whole */
    CROWD_STREAM,   /* a live event stream: kept open, events counted */
    CROWD_SLOW,     /* the request's headers a byte a second */
} crowd_kind;

/* One route and what the crowd got from it (zeroed results on entry). */
typedef struct crowd_route {
    const char *name;                 /* its figures' name: front_page */
    char path[ARB_WEB_MAX_URL + 1];   /* GET path */
    crowd_kind kind;
    int weight;                       /* CROWD_GET: its share of the requesters' requests */
    double goal_ms;                   /* the p99 goal printed beside it (0: none) */
    /* results */
    long attempted;                   /* requests begun (connections, for streams and slow clients) */
    long answers[CROWD_NCLASSES];     /* by status; CROWD_NONE: closed or unfinished without one */
    long unfinished;                  /* of CROWD_NONE: still waiting when the run ended */
    long truncated;                   /* a status, then the body cut short */
    double *ms;                       /* each answer's time, ms (GET: to the last byte; stream: to
                                         the headers; slow: to the cut) */
    size_t nms, capms;
    long events;                      /* CROWD_STREAM: events received */
    long ended;                       /* CROWD_STREAM: streams the server ended; CROWD_SLOW: cut with
                                         a close and no status */
    uint64_t bytes;                   /* body bytes received */
} crowd_route;

typedef struct crowd_spec {
    int port;                  /* the server, on 127.0.0.1 */
    int clients;               /* in all */
    int streams;               /* of them, live streams (the first CROWD_STREAM route) */
    int slow;                  /* of them, slow clients (the first CROWD_SLOW route) */
    int proxy_pct;             /* of the requesters, the share through the proxy (0: none) */
    int think_ms;              /* a requester waits 0..2*think_ms between requests */
    double seconds;            /* requests are begun for this long */
    double grace_s;            /* then the ones in flight have this long to end */
    atomic_bool *stop;         /* set: stop beginning requests now (NULL: only by time) */
    crowd_route *routes;
    int nroutes;
} crowd_spec;

/* Run the crowd until spec->seconds or *stop, then the grace; the routes'
 * results filled. 0, or < 0 with a message (no route, the descriptors or
 * memory not to be had). */
int crowd_run(const crowd_spec *spec, char *err, size_t errlen);
/* The q-quantile (0..1) of a route's times (sorts them); 0 when none. */
double crowd_quantile(crowd_route *r, double q);
/* Free the routes' times. */
void crowd_release(crowd_route *routes, int n);

#endif
