/* arb_limits.h — every bound on outside input and on internal tables, with the
 * reason for each number. Code that enforces a limit names the macro. */
#ifndef ARB_LIMITS_H
#define ARB_LIMITS_H

/* Seats at a table: Dou Dizhu has 3 or 4, Da Bang 4. */
#define ARB_MAX_SEATS 4

/* One line of `arbiter moves` input or of a bot reply. The longest honest line
 * is a two-pack 33-card play plus a category name, well under 256 bytes; 4096
 * leaves room for comments and is still cheap to hold per seat. */
#define ARB_MAX_LINE 4096

/* Cards in one play as text: a 33-card Dou Dizhu hand is the longest play, a
 * 39-card Da Bang hand the longest hand. */
#define ARB_MAX_PLAY_TEXT 128

/* Legal moves of one position. The worst Dou Dizhu case (a 33-card two-pack
 * landlord hand under the most permissive kicker rules) stays below 20,000
 * moves; 1<<16 leaves a margin and is 1 MiB of 16-byte moves. Enumeration
 * past it fails with ARB_ENOSPC rather than truncating silently. */
#define ARB_MAX_MOVES 65536

/* Redeals after everybody declines the landlord: a hard ceiling on the rules
 * option, so a table of always-passing bots cannot loop forever. */
#define ARB_MAX_REDEALS 100

/* Label used in child-seed derivation (see docs/rng.md). */
#define ARB_MAX_SEED_LABEL 256

/* Bounded buffers default to this cap unless their creator sets one. */
#define ARB_BUF_DEFAULT_CAP (1u << 20)

#endif
