/* web_srv.h — what the server (web_server.c) is made of besides the
 * library: the render cache (web_cache.c) and the clients, their address
 * behind a trusted proxy and their counts in flight (web_clients.c). Plain
 * memory and locks: no sockets, no record. */
#ifndef ARB_WEB_SRV_H
#define ARB_WEB_SRV_H
#include "web.h"
#include "arb_limits.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* ---- the render cache (web_cache.c) ------------------------------------ */

#define WC_KEY (ARB_WEB_MAX_URL + 72)

/* One answer, kept or being rendered. Held by the cache while listed and
 * by each request using it (wc_put gives a hold back). */
typedef struct wc_entry {
    char key[WC_KEY];            /* ROUTE@ (a page), ROUTE! once immutable, ROUTE#ETAG! (a kept transcript) */
    char sig[64];                /* the record's change number it was claimed under */
    struct wc_entry *prev;       /* the stale answer it replaces, held: sent while this one renders */
    int status;
    const char *type;
    arb_buf body;
    char etag[24];               /* strong: "hash of the status and body" */
    bool immutable;              /* a finished match's transcript: never changes */
    bool ready;                  /* rendered (else one request renders it and the others wait) */
    bool listed;                 /* in the cache's table (else only its holders have it) */
    int refs;
    uint64_t used;               /* the cache's tick at its last use (least recently used goes first) */
    uint64_t born_ns;            /* when it was rendered (monotonic): ARB_WEB_CACHE_FRESH_S */
} wc_entry;

typedef struct wc_cache {
    pthread_mutex_t lock;
    pthread_cond_t done;         /* an entry became ready or was given up */
    wc_entry *e[ARB_WEB_CACHE_ENTRIES];
    unsigned n;
    size_t bytes;                /* the bodies listed */
    uint64_t tick;
} wc_cache;

int  wc_init(wc_cache *c);
void wc_release(wc_cache *c);
/* The ready entry of key, held, or NULL (none, or older than
 * ARB_WEB_CACHE_FRESH_S unless immutable). */
wc_entry *wc_find(wc_cache *c, const char *key);
/* The entry of key, held: ready (*mine false), or new and the caller's to
 * render (*mine true; wc_publish it). An entry claimed under another
 * change number (sig) or older than ARB_WEB_CACHE_FRESH_S is stale: the
 * first request to find it renders anew. The others wait for that render
 * (up to ARB_WEB_RENDER_WAIT_MS), except when the stale answer was claimed
 * under their change number (it is only old): they are sent it meanwhile
 * (stale while revalidating). NULL when the wait ran out or memory did. */
wc_entry *wc_claim(wc_cache *c, const char *key, const char *sig, bool *mine);
/* A new entry the cache does not list (an answer sent without keeping
 * it), held by the caller; NULL when memory ran out. */
wc_entry *wc_own(void);
/* Publish the caller's render into e (out's body moves into it): kept when
 * it is a 200 or 404 small enough; an immutable one is re-keyed ROUTE!. */
void wc_publish(wc_cache *c, wc_entry *e, web_out *out, const char *route);
/* Keep a finished match's streamed transcript (web_server.c): body (it
 * moves in) under ROUTE! with that ETag, unless one is kept already. */
void wc_keep(wc_cache *c, const char *route, const char *type, arb_buf *body, const char *etag);
/* The caller's render did not happen (no session): e is given up and its
 * waiters render themselves; the caller's hold is given back. */
void wc_abandon(wc_cache *c, wc_entry *e);
/* Give a hold back (the last one frees). */
void wc_put(wc_cache *c, wc_entry *e);
/* The strong ETag of a status and body, quotes included. */
void wc_etag(int status, const void *data, size_t len, char out[24]);

/* ---- clients (web_clients.c) ------------------------------------------- */

/* An address as 16 bytes (IPv4 as ::ffff:a.b.c.d) and a network of them. */
typedef struct wcl_addr {
    uint8_t b[16];
} wcl_addr;
typedef struct wcl_net {
    wcl_addr a;
    int bits;
} wcl_net;

/* "ADDR" or "ADDR/BITS", IPv4 or IPv6: 0 or ARB_EINVAL. */
int  wcl_net_parse(const char *s, wcl_net *n);
bool wcl_in(const wcl_addr *a, const wcl_net *nets, int n);
/* The client of a request from peer: peer itself unless it is one of the
 * trusted nets; then the right-most entry of xff (the X-Forwarded-For
 * headers joined by ',', in order) that is not trusted, looking at most
 * ARB_WEB_XFF_HOPS entries (an entry that is no address ends the walk:
 * the last trusted hop is the client). */
wcl_addr wcl_client(const wcl_addr *peer, const char *xff, const wcl_net *nets, int n);
/* The text of an address (for a log line). */
void wcl_format(const wcl_addr *a, char *out, size_t cap);

typedef enum wcl_kind {
    WCL_REQUEST,                 /* any request: ARB_WEB_REQUESTS_PER_CLIENT */
    WCL_HEAVY,                   /* also a heavy one: ARB_WEB_HEAVY_PER_CLIENT */
    WCL_STREAM,                  /* an event stream: ARB_WEB_STREAMS_PER_CLIENT */
    WCL_KINDS
} wcl_kind;
enum { WCL_OK = 0, WCL_CLIENT_LIMIT = 1, WCL_FULL = 2 };

typedef struct wcl_entry {
    wcl_addr a;
    int count[WCL_KINDS];
    int next;                    /* the bucket's next, -1 none */
    bool used;
} wcl_entry;

/* The counts in flight per client. */
typedef struct wcl_table {
    pthread_mutex_t lock;
    int head[1024];              /* buckets by hash, -1 empty */
    int free;                    /* the free entries' list, -1 none */
    wcl_entry c[ARB_WEB_MAX_CLIENTS];
} wcl_table;

void wcl_init(wcl_table *t);
void wcl_release(wcl_table *t);
/* Count one of kind for a: WCL_OK with its entry in *slot, WCL_CLIENT_LIMIT
 * (a is at its bound: 429) or WCL_FULL (no room: 503). */
int  wcl_take(wcl_table *t, const wcl_addr *a, wcl_kind kind, int *slot);
/* Give it back. */
void wcl_give(wcl_table *t, int slot, wcl_kind kind);

#endif
