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

/* One line from the referee to a bot. Only an `ask play` carrying the list
 * of legal plays gets long: a few thousand plays of up to ~40 characters for
 * the richest two-pack leads. 4 MiB bounds the worst case with room to
 * spare; a bot SDK sizes its read buffer from this. */
#define ARB_MAX_REQUEST (4u << 20)

/* Output queued for one bot that has not read it yet. Events are queued
 * without waiting (a bot busy thinking must not hold up the table); a bot
 * that never reads is cut off here instead of growing the referee. Four
 * requests of the largest size. */
#define ARB_MAX_QUEUE (16u << 20)

/* A bot's name in its handshake (logs, tables): 1..32 of [A-Za-z0-9_.-]. */
#define ARB_MAX_BOT_NAME 32

/* Bytes of a bot's stderr kept per match. Enough for a useful trace; a bot
 * that floods stderr costs the transcript no more than this. */
#define ARB_STDERR_CAP (64u << 10)

/* Deals in one match (duplicate seatings included): a match of 100,000
 * deals is hours of play; more is a configuration mistake. */
#define ARB_MAX_DEALS 100000

/* A transcript file. A decision costs at most one request (stored without
 * its legal list, which replay re-derives) and one bounded reply, so even
 * long matches stay far below this; the reader refuses anything larger
 * before reading it. */
#define ARB_MAX_TRANSCRIPT (256u << 20)

/* Nesting depth of a msgpack object read from outside (transcripts, wire
 * frames). Our own schemas nest at most 4 deep. */
#define ARB_MP_MAX_DEPTH 16

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

/* ---- Worker and scheduler key holders (docs/security.md) ---------------- */

/* A text field from the wire (a void reason, a hand-back reason, a
 * transcript path, a bot's sandbox description): valid UTF-8 without
 * control characters, at most this many bytes. The longest honest one is a
 * void reason quoting a bot's command line (~300 bytes); 480 stays below
 * every fixed buffer it is copied into (512). */
#define ARB_WIRE_MAX_TEXT 480

/* A worker's identity (its key's name, "key:" and its Z85 public key, or
 * "local:0") and the name a hello gives: 1..64 of [A-Za-z0-9_.:-] plus the
 * Z85 punctuation of a key. "key:" and 40 characters is 44; 64 leaves room
 * for a host name and stays a short log field and table column. */
#define ARB_WORKER_ID_MAX 64

/* Frames one worker identity may send per second, on average, with a burst
 * of ARB_WORKER_FRAME_BURST. An honest worker sends a heartbeat per
 * heartbeat period, a progress frame per deal and a result per match: with
 * 256 slots of one-deal matches that is a few hundred a second at most.
 * Past the budget frames are dropped unread (counted): a flood from one key
 * costs the scheduler a receive, never a decode or a statement. */
#define ARB_WORKER_FRAMES_PER_S 500
#define ARB_WORKER_FRAME_BURST 2000

/* Frames queued in the scheduler's socket per connection before libzmq
 * stops reading it (ZMQ_RCVHWM): a connection that floods waits on TCP
 * instead of growing the scheduler's memory past this × the frame size. */
#define ARB_WORKER_RCVHWM 1000

/* CURVE handshakes one key may complete per minute (the ZAP handler
 * refuses more): an honest worker reconnects at most once per
 * heartbeat_misses heartbeats (5 s by default), so 12 a minute plus room
 * for a restart; a key that opens connection after connection is refused
 * instead of holding hundreds of them. */
#define ARB_ZAP_HANDSHAKES_PER_MIN 30

/* Identities the scheduler keeps a frame budget for: every listed key and
 * the local worker (ZAP_MAX_KEYS + 1). */
#define ARB_WORKER_BUDGETS 4097

/* A worker resends an unacknowledged result after 1 s, then 2 s, 4 s ...
 * up to this cap, until any acknowledgement (recorded, stale, refused)
 * comes: a restarted scheduler sees each result a handful of times, not
 * once per hello. */
#define ARB_RESEND_FIRST_MS 1000
#define ARB_RESEND_MAX_MS 32000

/* The metrics endpoint: connections held at once, in all and from one
 * address, and how long one may stay silent. An honest scrape is one
 * short connection; 256 in all (epoll, 16 KiB each: 4 MiB) and 64 per
 * address let 20+ slow clients (slowloris) sit there while /healthz from
 * anywhere, loopback included, still answers; 3 s of silence closes one. */
#define ARB_HTTP_MAX_CONNECTIONS 256u
#define ARB_HTTP_MAX_PER_IP 64u
#define ARB_HTTP_IDLE_TIMEOUT_S 3u

#endif
