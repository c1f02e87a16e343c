/* web_clients.c — who a request is from and what it has in flight
 * (docs/web.md, "Serving a crowd"): the peer's address, or behind a
 * trusted proxy the right-most untrusted address of X-Forwarded-For (the
 * entries further left are the client's own say, which anyone can forge),
 * and per client the requests, heavy requests and event streams open, so
 * that one address is answered 429 at its bound while the others are
 * served. */
#include "web_srv.h"
#include "arb_error.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An address's text (IPv4, IPv6, "[IPv6]", IPv4 with ":PORT") as 16
 * bytes: whether it is one. */
static bool addr_parse(const char *s, size_t len, wcl_addr *a)
{
    char buf[64];
    while (len && (*s == ' ' || *s == '\t'))
        s++, len--;
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    if (len && s[0] == '[') {
        const char *end = memchr(s, ']', len);
        if (!end)
            return false;
        len = (size_t)(end - s - 1);
        s++;
    } else if (memchr(s, '.', len) && memchr(s, ':', len)) {
        const char *colon = memchr(s, ':', len);
        if (!memchr(colon + 1, ':', len - (size_t)(colon + 1 - s)))
            len = (size_t)(colon - s);   /* a.b.c.d:PORT */
    }
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    struct in_addr v4;
    memset(a, 0, sizeof *a);
    if (inet_pton(AF_INET, buf, &v4) == 1) {
        a->b[10] = a->b[11] = 0xff;
        memcpy(a->b + 12, &v4, 4);
        return true;
    }
    return inet_pton(AF_INET6, buf, a->b) == 1;
}

int wcl_net_parse(const char *s, wcl_net *n)
{
    const char *slash = strchr(s, '/');
    size_t len = slash ? (size_t)(slash - s) : strlen(s);
    if (!addr_parse(s, len, &n->a))
        return ARB_EINVAL;
    bool v4 = strchr(s, '.') && !memchr(s, ':', len);
    int max = v4 ? 32 : 128;
    n->bits = max;
    if (slash) {
        char *end;
        long b = strtol(slash + 1, &end, 10);
        if (slash[1] == '\0' || *end || b < 0 || b > max)
            return ARB_EINVAL;
        n->bits = (int)b;
    }
    if (v4)
        n->bits += 96;
    return 0;
}

static bool in_net(const wcl_addr *a, const wcl_net *n)
{
    int full = n->bits / 8, rest = n->bits % 8;
    if (memcmp(a->b, n->a.b, (size_t)full) != 0)
        return false;
    uint8_t mask = (uint8_t)(0xff << (8 - rest));
    return rest == 0 || ((a->b[full] ^ n->a.b[full]) & mask) == 0;
}

bool wcl_in(const wcl_addr *a, const wcl_net *nets, int n)
{
    for (int i = 0; i < n; i++)
        if (in_net(a, &nets[i]))
            return true;
    return false;
}

wcl_addr wcl_client(const wcl_addr *peer, const char *xff, const wcl_net *nets, int n)
{
    wcl_addr client = *peer;
    if (!xff || !wcl_in(peer, nets, n))
        return client;
    size_t end = strlen(xff);
    for (int hop = 0; hop < ARB_WEB_XFF_HOPS && end > 0; hop++) {
        size_t start = end;
        while (start > 0 && xff[start - 1] != ',')
            start--;
        wcl_addr a;
        if (!addr_parse(xff + start, end - start, &a))
            break;                      /* not an address: the last trusted hop is the client */
        client = a;
        if (!wcl_in(&a, nets, n))
            break;
        end = start ? start - 1 : 0;
    }
    return client;
}

void wcl_format(const wcl_addr *a, char *out, size_t cap)
{
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    char buf[INET6_ADDRSTRLEN];
    if (memcmp(a->b, mapped, 12) == 0)
        inet_ntop(AF_INET, a->b + 12, buf, sizeof buf);
    else
        inet_ntop(AF_INET6, a->b, buf, sizeof buf);
    snprintf(out, cap, "%s", buf);
}

/* ---- the counts in flight ------------------------------------------------ */

#define NBUCKETS (sizeof ((wcl_table *)0)->head / sizeof (int))

void wcl_init(wcl_table *t)
{
    pthread_mutex_init(&t->lock, NULL);
    for (size_t i = 0; i < NBUCKETS; i++)
        t->head[i] = -1;
    for (int i = 0; i < (int)ARB_WEB_MAX_CLIENTS; i++) {
        t->c[i].used = false;
        t->c[i].next = i + 1 < (int)ARB_WEB_MAX_CLIENTS ? i + 1 : -1;
    }
    t->free = 0;
}

void wcl_release(wcl_table *t) { pthread_mutex_destroy(&t->lock); }

static size_t bucket(const wcl_addr *a)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < 16; i++)
        h = (h ^ a->b[i]) * 16777619u;
    return h % NBUCKETS;
}

/* Under the lock: a's entry, made when missing; -1 when the table is full. */
static int find_or_add(wcl_table *t, const wcl_addr *a)
{
    size_t h = bucket(a);
    for (int i = t->head[h]; i >= 0; i = t->c[i].next)
        if (memcmp(t->c[i].a.b, a->b, 16) == 0)
            return i;
    int i = t->free;
    if (i < 0)
        return -1;
    t->free = t->c[i].next;
    memset(&t->c[i], 0, sizeof t->c[i]);
    t->c[i].a = *a;
    t->c[i].used = true;
    t->c[i].next = t->head[h];
    t->head[h] = i;
    return i;
}

/* Under the lock: entry i back to the free list once nothing is in flight. */
static void drop_if_idle(wcl_table *t, int i)
{
    for (int k = 0; k < WCL_KINDS; k++)
        if (t->c[i].count[k])
            return;
    int *p = &t->head[bucket(&t->c[i].a)];
    while (*p != i)
        p = &t->c[*p].next;
    *p = t->c[i].next;
    t->c[i].used = false;
    t->c[i].next = t->free;
    t->free = i;
}

static const int bound[WCL_KINDS] = {
    [WCL_REQUEST] = (int)ARB_WEB_REQUESTS_PER_CLIENT,
    [WCL_HEAVY] = (int)ARB_WEB_HEAVY_PER_CLIENT,
    [WCL_STREAM] = (int)ARB_WEB_STREAMS_PER_CLIENT,
};

int wcl_take(wcl_table *t, const wcl_addr *a, wcl_kind kind, int *slot)
{
    pthread_mutex_lock(&t->lock);
    int i = find_or_add(t, a), rc = WCL_OK;
    if (i < 0)
        rc = WCL_FULL;
    else if (t->c[i].count[kind] >= bound[kind])
        rc = WCL_CLIENT_LIMIT;
    else
        t->c[i].count[kind]++;
    if (i >= 0 && rc != WCL_OK)
        drop_if_idle(t, i);
    pthread_mutex_unlock(&t->lock);
    *slot = i;
    return rc;
}

void wcl_give(wcl_table *t, int slot, wcl_kind kind)
{
    pthread_mutex_lock(&t->lock);
    if (slot >= 0 && t->c[slot].used && t->c[slot].count[kind] > 0) {
        t->c[slot].count[kind]--;
        drop_if_idle(t, slot);
    }
    pthread_mutex_unlock(&t->lock);
}
