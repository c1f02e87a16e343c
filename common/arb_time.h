/* arb_time.h — monotonic time for durations, wall time only for people. */
#ifndef ARB_TIME_H
#define ARB_TIME_H
#include <stdint.h>
#include <stddef.h>

/* Nanoseconds on CLOCK_MONOTONIC: for deadlines and durations. */
uint64_t arb_now_ns(void);
/* CPU time of the calling thread in nanoseconds (CLOCK_THREAD_CPUTIME_ID). */
uint64_t arb_thread_cpu_ns(void);
/* Wall clock as UTC ISO-8601 with milliseconds ("2026-11-22T10:00:00.123Z")
 * into buf (at least 25 bytes). Returns buf. */
char *arb_wall_iso8601(char *buf, size_t len);

#endif
