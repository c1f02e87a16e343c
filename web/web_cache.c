/* web_cache.c — the server's render cache (docs/web.md, "Serving a
 * crowd"): answers by key, bounded in entries and bytes (arb_limits.h),
 * the least recently used given up first, one render per key at a time
 * (the others wait for it), each entry held by the requests sending it so
 * that nothing is copied or freed under them. */
#include "web_srv.h"
#include "arb_time.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int wc_init(wc_cache *c)
{
    memset(c, 0, sizeof *c);
    pthread_condattr_t a;
    if (pthread_condattr_init(&a) != 0)
        return -1;
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    int rc = pthread_cond_init(&c->done, &a);
    pthread_condattr_destroy(&a);
    if (rc != 0)
        return -1;
    pthread_mutex_init(&c->lock, NULL);
    return 0;
}

static void entry_free(wc_entry *e)
{
    arb_buf_release(&e->body);
    free(e);
}

/* Under the lock: one hold less; the last frees. */
static void put_locked(wc_cache *c, wc_entry *e)
{
    if (--e->refs > 0)
        return;
    if (e->prev)
        put_locked(c, e->prev);
    entry_free(e);
}

/* Under the lock: the stale answer e replaced is sent no more. */
static void drop_prev(wc_cache *c, wc_entry *e)
{
    if (e->prev)
        put_locked(c, e->prev);
    e->prev = NULL;
}

/* Under the lock: take entry i out of the table. */
static void unlist(wc_cache *c, unsigned i)
{
    wc_entry *e = c->e[i];
    if (e->ready)
        c->bytes -= e->body.len;
    e->listed = false;
    c->e[i] = c->e[--c->n];
    put_locked(c, e);
}

void wc_release(wc_cache *c)
{
    while (c->n)
        unlist(c, 0);
    pthread_cond_destroy(&c->done);
    pthread_mutex_destroy(&c->lock);
}

static bool fresh(const wc_entry *e)
{
    return e->immutable || arb_now_ns() - e->born_ns < (uint64_t)ARB_WEB_CACHE_FRESH_S * 1000000000u;
}

/* Under the lock: the listed entry of key, or the table's size. */
static unsigned lookup(const wc_cache *c, const char *key)
{
    unsigned i = 0;
    while (i < c->n && strcmp(c->e[i]->key, key) != 0)
        i++;
    return i;
}

wc_entry *wc_find(wc_cache *c, const char *key)
{
    wc_entry *e = NULL;
    pthread_mutex_lock(&c->lock);
    unsigned i = lookup(c, key);
    if (i < c->n && c->e[i]->ready && fresh(c->e[i])) {
        e = c->e[i];
        e->refs++;
        e->used = ++c->tick;
    }
    pthread_mutex_unlock(&c->lock);
    return e;
}

/* Under the lock: give up the least recently used ready entry no request
 * holds; false when every entry is held or being rendered. */
static bool evict_one(wc_cache *c)
{
    unsigned best = c->n;
    for (unsigned i = 0; i < c->n; i++)
        if (c->e[i]->ready && c->e[i]->refs == 1 && (best == c->n || c->e[i]->used < c->e[best]->used))
            best = i;
    if (best == c->n)
        return false;
    unlist(c, best);
    return true;
}

wc_entry *wc_own(void)
{
    wc_entry *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->refs = 1;
    arb_buf_init(&e->body, 1);
    return e;
}

/* Under the lock: a new entry of key, held by the caller (and listed when
 * there is room). */
static wc_entry *fresh_entry(wc_cache *c, const char *key)
{
    wc_entry *e = wc_own();
    if (!e)
        return NULL;
    snprintf(e->key, sizeof e->key, "%s", key);
    if (c->n == ARB_WEB_CACHE_ENTRIES)
        evict_one(c);
    if (c->n < ARB_WEB_CACHE_ENTRIES) {
        e->listed = true;
        e->refs++;
        c->e[c->n++] = e;
    }
    return e;
}

/* Under the lock: wait for e's render until deadline; whether it is ready. */
static bool wait_ready(wc_cache *c, wc_entry *e, const struct timespec *deadline)
{
    while (!e->ready && e->listed)
        if (pthread_cond_timedwait(&c->done, &c->lock, deadline) == ETIMEDOUT)
            break;
    return e->ready;
}

/* Under the lock: whether a ready e must be rendered again for sig. */
static bool stale(const wc_entry *e, const char *sig)
{
    return !fresh(e) || (!e->immutable && strcmp(e->sig, sig) != 0);
}

/* Under the lock: entry i (ready, stale) replaced by a new entry of its
 * key, the caller's to render, which holds the old one to send meanwhile;
 * NULL when memory ran out. */
static wc_entry *renew(wc_cache *c, unsigned i, const char *sig)
{
    wc_entry *old = c->e[i];
    old->refs++;
    unlist(c, i);
    wc_entry *e = fresh_entry(c, old->key);
    if (!e) {
        put_locked(c, old);
        return NULL;
    }
    e->prev = old;
    snprintf(e->sig, sizeof e->sig, "%s", sig);
    return e;
}

wc_entry *wc_claim(wc_cache *c, const char *key, const char *sig, bool *mine)
{
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += ARB_WEB_RENDER_WAIT_MS / 1000;
    deadline.tv_nsec += (long)(ARB_WEB_RENDER_WAIT_MS % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    *mine = false;
    pthread_mutex_lock(&c->lock);
    wc_entry *e = NULL;
    for (;;) {
        unsigned i = lookup(c, key);
        if (i < c->n && c->e[i]->ready && stale(c->e[i], sig)) {
            e = renew(c, i, sig);
            *mine = e != NULL;
            break;
        }
        if (i == c->n) {
            e = fresh_entry(c, key);
            if (e)
                snprintf(e->sig, sizeof e->sig, "%s", sig);
            *mine = e != NULL;
            break;
        }
        e = c->e[i];
        /* being rendered again only for its age, the record unchanged as
         * far as this request knows: the older answer meanwhile (after a
         * change, a live page's next fetch must see it: it waits) */
        if (!e->ready && e->prev && strcmp(e->prev->sig, sig) == 0) {
            e = e->prev;
            e->refs++;
            e->used = ++c->tick;
            break;
        }
        e->refs++;
        if (wait_ready(c, e, &deadline)) {
            e->used = ++c->tick;
            break;
        }
        bool gave_up = e->listed;   /* still rendering: the wait ran out */
        put_locked(c, e);
        e = NULL;
        if (gave_up)
            break;
    }
    pthread_mutex_unlock(&c->lock);
    return e;
}

void wc_etag(int status, const void *data, size_t len, char out[24])
{
    /* FNV-1a, 64 bits, over the status and the body */
    uint64_t h = 0xcbf29ce484222325u ^ (uint64_t)status;
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3u;
    }
    snprintf(out, 24, "\"%016llx\"", (unsigned long long)h);
}

/* Under the lock: whether e may stay listed, with room made for it. */
static bool keep(wc_cache *c, const wc_entry *e)
{
    if ((e->status != 200 && e->status != 404) || e->body.len > ARB_WEB_CACHE_ENTRY_MAX)
        return false;
    while (c->bytes + e->body.len > ARB_WEB_CACHE_BYTES)
        if (!evict_one(c))
            return false;
    return true;
}

/* Under the lock: an immutable e re-keyed ROUTE! in place of an older
 * entry of that key. */
static void rekey_immutable(wc_cache *c, wc_entry *e, const char *route)
{
    char key[WC_KEY];
    snprintf(key, sizeof key, "%s!", route);
    unsigned old = lookup(c, key);
    if (old < c->n)
        unlist(c, old);
    snprintf(e->key, sizeof e->key, "%s", key);
}

/* Under the lock: a rendered e kept (its bytes counted; an immutable one
 * re-keyed ROUTE! unless route is NULL) or unlisted, then ready. */
static void settle(wc_cache *c, wc_entry *e, const char *route)
{
    if (e->listed && !keep(c, e)) {
        unlist(c, lookup(c, e->key));   /* not ready yet: no bytes counted */
    } else if (e->listed) {
        if (e->immutable && route)
            rekey_immutable(c, e, route);
        c->bytes += e->body.len;
    }
    e->ready = true;
    e->used = ++c->tick;
    drop_prev(c, e);
    pthread_cond_broadcast(&c->done);
}

void wc_publish(wc_cache *c, wc_entry *e, web_out *out, const char *route)
{
    e->status = out->status;
    e->type = out->type;
    arb_buf_release(&e->body);
    e->body = out->body;
    arb_buf_init(&out->body, 1);
    /* the buffer grew by doubling: give back what the body does not use,
     * so that the cache's byte bound is the memory it holds */
    if (e->body.data && e->body.alloc > e->body.len + 1) {
        char *fit = realloc(e->body.data, e->body.len + 1);
        if (fit) {
            e->body.data = fit;
            e->body.alloc = e->body.len + 1;
        }
    }
    wc_etag(e->status, e->body.data, e->body.len, e->etag);
    e->immutable = e->status == 200 && out->immutable[0];
    e->born_ns = arb_now_ns();
    pthread_mutex_lock(&c->lock);
    settle(c, e, route);
    pthread_mutex_unlock(&c->lock);
}

void wc_keep(wc_cache *c, const char *route, const char *type, arb_buf *body, const char *etag)
{
    char key[WC_KEY];
    snprintf(key, sizeof key, "%s!", route);
    pthread_mutex_lock(&c->lock);
    wc_entry *e = lookup(c, key) == c->n ? fresh_entry(c, key) : NULL;
    if (e) {
        e->status = 200;
        e->type = type;
        arb_buf_release(&e->body);
        e->body = *body;
        arb_buf_init(body, 1);
        snprintf(e->etag, sizeof e->etag, "%s", etag);
        e->immutable = true;
        e->born_ns = arb_now_ns();
        settle(c, e, NULL);
        put_locked(c, e);
    }
    pthread_mutex_unlock(&c->lock);
}

void wc_abandon(wc_cache *c, wc_entry *e)
{
    pthread_mutex_lock(&c->lock);
    if (e->listed)
        unlist(c, lookup(c, e->key));
    drop_prev(c, e);
    pthread_cond_broadcast(&c->done);
    put_locked(c, e);
    pthread_mutex_unlock(&c->lock);
}

void wc_put(wc_cache *c, wc_entry *e)
{
    pthread_mutex_lock(&c->lock);
    put_locked(c, e);
    pthread_mutex_unlock(&c->lock);
}
