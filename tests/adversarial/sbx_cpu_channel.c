/* sbx_cpu_channel.c — the CPU-contention timing channel that stays open
 * between sandboxes (docs/security.md, "Known limits"), measured: a sender
 * spins on every core for a 1 and sleeps for a 0, in slots of SLOT_MS on
 * the monotonic clock (which every sandbox shares); a receiver counts how
 * far a busy loop of its own gets in each slot and reads a slot slower
 * than the median as a 1. Run the two in separate sandboxes at once
 * (sbx_cpu_channel.sh); the receiver prints the bit rate, the error rate
 * and what a code could carry at that error rate (the capacity of a
 * binary symmetric channel). A figure, never a pass or fail.
 *
 *   sbx_cpu_channel send|recv SLOT_MS NBITS START_MS SEED
 *
 * START_MS: the slot clock's origin (CLOCK_MONOTONIC, ms), given to both;
 * SEED: the bits the sender sends (the receiver regenerates them only to
 * count its errors). */
#include "arb_num.h"
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_BITS 4096
#define MAX_SPINNERS 16

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
    struct timespec ts = {(time_t)(t / 1000000000u), (long)(t % 1000000000u)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {
    }
}

/* The sender's bits: xorshift from the seed. */
static int bit_at(uint64_t seed, int i)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + (uint64_t)i * 0xbf58476d1ce4e5b9ull + 1;
    x ^= x >> 31;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 29;
    return (int)(x & 1);
}

typedef struct plan {
    uint64_t start, slot;
    int nbits;
    uint64_t seed;
} plan;

static void *spin(void *arg)
{
    const plan *p = arg;
    volatile uint64_t sink = 0;
    for (int i = 0; i < p->nbits; i++) {
        uint64_t end = p->start + (uint64_t)(i + 1) * p->slot;
        if (!bit_at(p->seed, i)) {
            sleep_until(end);
            continue;
        }
        while (now_ns() < end)
            sink++;
    }
    return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 6 || (strcmp(argv[1], "send") != 0 && strcmp(argv[1], "recv") != 0)) {
        fprintf(stderr, "usage: sbx_cpu_channel send|recv SLOT_MS NBITS START_MS SEED\n");
        return 2;
    }
    plan p = {.slot = strtoull(argv[2], NULL, 10) * 1000000u, .nbits = (int)arb_num_or(argv[3], 0),
              .start = strtoull(argv[4], NULL, 10) * 1000000u, .seed = strtoull(argv[5], NULL, 10)};
    if (p.slot == 0 || p.nbits <= 0 || p.nbits > MAX_BITS) {
        fprintf(stderr, "sbx_cpu_channel: SLOT_MS > 0 and 0 < NBITS <= %d\n", MAX_BITS);
        return 2;
    }
    sleep_until(p.start);
    if (argv[1][0] == 's') {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        int n = ncpu < 1 ? 1 : ncpu > MAX_SPINNERS ? MAX_SPINNERS : (int)ncpu;
        pthread_t th[MAX_SPINNERS];
        for (int i = 1; i < n; i++)
            pthread_create(&th[i], NULL, spin, &p);
        spin(&p);
        for (int i = 1; i < n; i++)
            pthread_join(th[i], NULL);
        return 0;
    }
    /* the receiver: loop counts in the middle 80 % of each slot */
    static uint64_t count[MAX_BITS], sorted[MAX_BITS];
    for (int i = 0; i < p.nbits; i++) {
        uint64_t s = p.start + (uint64_t)i * p.slot;
        uint64_t from = s + p.slot / 10, to = s + p.slot * 9 / 10;
        sleep_until(from);
        uint64_t c = 0;
        while (now_ns() < to)
            c++;
        count[i] = c;
        sleep_until(s + p.slot);
    }
    memcpy(sorted, count, sizeof count[0] * (size_t)p.nbits);
    qsort(sorted, (size_t)p.nbits, sizeof sorted[0], cmp_u64);
    uint64_t median = sorted[p.nbits / 2];
    int errors = 0;
    for (int i = 0; i < p.nbits; i++)
        errors += (count[i] < median) != bit_at(p.seed, i);
    double e = (double)errors / p.nbits, rate = 1000.0 / ((double)p.slot / 1e6);
    double h = e <= 0 || e >= 1 ? 0 : -e * log2(e) - (1 - e) * log2(1 - e);
    printf("slot %3llu ms: %6.1f bits/s raw, error rate %5.1f %% (%d of %d), capacity %6.1f bits/s\n",
           (unsigned long long)(p.slot / 1000000u), rate, 100 * e, errors, p.nbits, rate * (1 - h));
    return 0;
}
