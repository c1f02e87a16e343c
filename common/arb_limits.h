/* arb_limits.h — every bound on outside input and on internal tables, with the
 * reason for each number. Code that enforces a limit names the macro. */
#ifndef ARB_LIMITS_H
#define ARB_LIMITS_H

/* Seats at a table: Dou Dizhu has 3 or 4, Da Bang 4. */
#define ARB_MAX_SEATS 4

/* Games in the registry (games/game.c): the built-in engines plus those
 * registered at start-up (arb_game_register). A handful are planned; 16
 * leaves room and keeps the lookup a short linear scan. */
#define ARB_MAX_GAMES 16

/* One line of `arbiter moves` input or of a bot reply, without its newline
 * (and a "\r" before it): a line of exactly this many bytes is accepted, one
 * more is `line-too-long` (schemas/bot-protocol.md). The longest honest line
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

/* The private /tmp, /var/tmp, /dev/shm and /run each bot gets (tmpfs, in
 * memory): a bot may keep scratch files there, not fill the host's memory.
 * Four times the largest file RLIMIT_FSIZE lets it write (16 MiB). A plain
 * number: it is spelt into bubblewrap's and mount's options. */
#define ARB_BOT_TMPFS_BYTES 67108864

/* A bot's name in its handshake (logs, tables): 1..32 of [A-Za-z0-9_.-]. */
#define ARB_MAX_BOT_NAME 32

/* Bytes of a bot's stderr kept per match. Enough for a useful trace; a bot
 * that floods stderr costs the transcript no more than this. */
#define ARB_STDERR_CAP (64u << 10)

/* Tables of one duplicate match whose game may end its match early (each
 * seating block a match of its own): at most the seatings of duplicate
 * all at ARB_MAX_SEATS, 4! = 24. */
#define ARB_MAX_MATCH_TABLES 24

/* Deals in one match (duplicate seatings included): a match of 100,000
 * deals is hours of play; more is a configuration mistake. */
#define ARB_MAX_DEALS 100000

/* Deal pairs (each deal played in both roles) before `arbiter eval` gives
 * an Elo interval or lets its SPRT decide. On a handful of pairs the
 * sample's variance is mostly noise: three pairs of one bot against itself
 * once read "+279.6 Elo, H1 accepted". Ten pairs give Student's t nine
 * degrees of freedom (a 95% quantile of 2.26, not 4.30 or 12.7) and let
 * the regularised pentanomial LLR (docs/evaluation.md) grow from evidence
 * rather than from its prior; the measured false-positive rate of the SPRT
 * with this minimum is in docs/evaluation.md. */
#define ARB_EVAL_MIN_PAIRS 10

/* A transcript file. A decision costs at most one request (stored without
 * its legal list, which replay re-derives) and one bounded reply, so even
 * long matches stay far below this; the reader refuses anything larger
 * before reading it. */
#define ARB_MAX_TRANSCRIPT (256u << 20)

/* Nesting depth of a msgpack object read from outside (transcripts, wire
 * frames). Our own schemas nest at most 4 deep. */
#define ARB_MP_MAX_DEPTH 16

/* Cards in one play or hand as text, in any game: a 33-card Dou Dizhu play
 * is the longest play, a 39-card Da Bang hand the longest hand. */
#define ARB_MAX_PLAY_TEXT 128
/* Cards in one play: the 33-card Dou Dizhu play is the longest. The C bot
 * library's sort keys of the legal list (abot_core.h) hold this many ranks
 * per part; a longer play (no rules make one) is ordered by its text there. */
#define ARB_MAX_PLAY_CARDS 64

/* Legal actions of one position, in any game. The worst Dou Dizhu case (a 33-card two-pack
 * landlord hand under the most permissive kicker rules) stays below 20,000
 * moves; 1<<16 leaves a margin and is 1 MiB of 16-byte moves. Enumeration
 * past it fails with ARB_ENOSPC rather than truncating silently. */
#define ARB_MAX_MOVES 65536

/* Tables of one round of a tournament. A round robin makes every table of
 * its entrants at once (C(n, seats) x cycles: 85 entrants at tables of 3
 * already make 98,770), and the scheduler holds a round's tables in one
 * array; 100,000 tables is days of play with fast bots. A configuration
 * past it is refused by the loader (`arbiter check` and `run` alike). */
#define ARB_MAX_TABLES 100000

/* Label used in child-seed derivation (see docs/rng.md). */
#define ARB_MAX_SEED_LABEL 256

/* A secret file (--secret-file): 64 hex digits and some white space; more
 * than this is not a secret file and is refused unread. */
#define ARB_KEY_FILE_MAX 256

/* Bounded buffers default to this cap unless their creator sets one. */
#define ARB_BUF_DEFAULT_CAP (1u << 20)

/* ---- A bot's resources (referee/cgroup.c, referee/seat.c; docs/security.md
 * "Resources: CPU, memory, disk") ---- */

/* Memory of one bot, all its processes together plus the pages of its tmpfs
 * (/tmp and the working directory live in RAM and are charged to it).
 * 1.25 GiB: what one process could always take (RLIMIT_AS, 1 GiB, which
 * stays as a per-process backstop) and room for the kernel's bookkeeping
 * and some files, so an honest bot that fitted before fits now; five
 * processes can no longer take five times that. With a cgroup the kernel
 * enforces it (memory.max / memory.limit_in_bytes, no swap); without one
 * the referee polls the processes' RSS (ARB_BOT_WATCH_MS) and kills past
 * it. */
#define ARB_BOT_MEMORY (1280ull << 20)

/* The bot's private /tmp (a tmpfs in RAM, counted in ARB_BOT_MEMORY too).
 * Scratch space for a bot, not a disk: 256 MiB holds a model's unpacked
 * weights of the size bots ship today. */
#define ARB_BOT_TMPFS (256ull << 20)

/* The bot's working directory (a tmpfs in its sandbox, so the total is
 * capped, not only each file as RLIMIT_FSIZE does). Same reasoning and size
 * as /tmp. */
#define ARB_BOT_WORKDIR (256ull << 20)

/* Without a cgroup: how often the referee sums the RSS of a bot's processes
 * while it thinks (kills past ARB_BOT_MEMORY) and rescans its processes for
 * CPU time. A scan of /proc costs about a millisecond on a busy host; at
 * 20 ms it stays a small fraction of a referee's time, and a bot can grow
 * only by what it allocates in 20 ms past the cap before it is caught. */
#define ARB_BOT_WATCH_MS 20

/* After "end" a bot may take this long to exit by itself (a Python bot's
 * interpreter takes tens of ms to tear down; one that writes a log at exit
 * more) before the referee kills it. Every bot of a table gets its grace at
 * once, so a match waits at most this long per stop, and a bot that exits
 * at once costs nothing. What it writes to stderr until then is kept; only
 * a bot still running after it is recorded as killed. */
#define ARB_BOT_END_GRACE_MS 1000

/* Without a cgroup: processes examined in one walk of a bot's process tree
 * (its own, and the referee's children among which its orphans are). A bot
 * has at most its RLIMIT_NPROC (64 by default); 4096 leaves room for the
 * referee's other children and bounds the walk's tables (32 KiB). */
#define ARB_BOT_SCAN_MAX 4096

/* Without a cgroup: processes remembered as a bot's once seen (with their
 * start times), so a child re-parented away from the bot (its parent
 * exited, it left the session) is still stopped and killed with it. Twice
 * the default RLIMIT_NPROC; past it the oldest are kept. */
#define ARB_BOT_KNOWN_PROCS 128

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
 * the local worker (ARB_ZAP_MAX_KEYS + 1). */
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
/* The metrics endpoint: a request's line and headers. An honest scrape is
 * a few hundred bytes; a longer head is answered 431 and closed. */
#define ARB_HTTP_HEAD_CAP (16u << 10)
/* The metrics endpoint: how long one connection may take from accept to
 * its answer, however it trickles (slowloris keeps each byte within the
 * idle timeout). A scrape takes milliseconds; 10 s bounds how long 64
 * slow connections from one address hold their places. */
#define ARB_HTTP_REQUEST_DEADLINE_S 10u

/* ---- Matches ----------------------------------------------------------- */

/* Arguments of a bot's command (program and arguments, split on spaces),
 * each at most 255 bytes: an honest command has a handful. */
#define ARB_MAX_BOT_ARGS 32

/* A bot's start-up budget (the time from its start to its handshake,
 * spent once per process): a tournament's clock.startup_ms and
 * clock.startup_ms_max, an entrant's startup_ms. Ten minutes: a bot that
 * loads a large model from a slow disk on a loaded host takes a minute or
 * two; one that needs more does its work at the wrong time (and holds a
 * worker's slot meanwhile). */
#define ARB_MAX_STARTUP_MS 600000

/* Environment variables an entrant declares for its bot (env:, ladder join
 * --env), beside the four the referee sets: a configuration's switches, a
 * model's path, a thread count. More belongs in a file of its program.
 * The variables travel in every assignment, transcript header and
 * entrant row, so their text is bounded like a command's:
 * ARB_MAX_BOT_ENV_TEXT bytes for every "NAME=value" with a separator each,
 * a name at most ARB_MAX_BOT_ENV_NAME characters (docs/security.md,
 * "A bot's environment"). */
#define ARB_MAX_BOT_ENV 16
#define ARB_MAX_BOT_ENV_TEXT 1024
#define ARB_MAX_BOT_ENV_NAME 64

/* A match's rules options as "key=value" text: a few dozen options of a
 * few dozen bytes; 4 KiB is room for every option of any game at once. */
#define ARB_MAX_OPTIONS_TEXT 4096

/* The label a match key is derived under (arb_key_derive(secret, label)):
 * "match|<tournament seed>|<round>|<table>" or "match|<seed>". */
#define ARB_MAX_KEY_LABEL 128

/* Penalties a match's result carries one by one (match_result.penalties:
 * the worker sends them to the scheduler, which writes them to the record's
 * `penalties` table). An honest bot under autoplay gets at most strikes + 1
 * (3 + 1 by default) before it forfeits the match; 64 tells the story of
 * any match worth disputing, and bounds a result frame (64 notes of
 * ARB_MAX_PENALTY_NOTE) and a worker's results in hand. Past it the first
 * 64 are kept and the rest counted (penalties_dropped): every penalty is
 * still in the transcript and in each seat's count. */
#define ARB_MAX_RESULT_PENALTIES 64

/* A penalty's note (what the referee says happened: the reason in words,
 * the reply quoted up to 200 bytes, the stray-line hint): the longest is a
 * rules engine's 511-byte refusal, the quote and ~130 bytes of hint. */
#define ARB_MAX_PENALTY_NOTE 1024

/* ---- Worker messages and programs -------------------------------------- */

/* A frame between scheduler and worker is at most this long
 * (ZMQ_MAXMSGSIZE): a result of ARB_MAX_DEALS deals is ~10 MB; an
 * assignment a few KB; a program bundle up to ARB_WIRE_MAX_BUNDLE. */
#define ARB_WIRE_MAX_FRAME (32u << 20)
/* A program bundle (a bot's files, up to ARB_BUNDLE_MAX_ENCODED) travels
 * in one WIRE_PROGRAM frame, from the scheduler to a worker only: a worker
 * accepts frames up to ARB_WIRE_MAX_PROGRAM_FRAME from the scheduler it
 * chose to connect to, while the scheduler, which anyone may connect to,
 * keeps ARB_WIRE_MAX_FRAME for what it receives (no frame a worker sends
 * carries a bundle). One frame rather than chunks: a worker unpacks a
 * bundle only whole and checked against its digest, so it would hold all
 * the chunks anyway. */
#define ARB_WIRE_MAX_BUNDLE ARB_BUNDLE_MAX_ENCODED
#define ARB_WIRE_MAX_PROGRAM_FRAME (ARB_WIRE_MAX_BUNDLE + 4096)
/* Program bundles attached to one assignment: a few per bot. */
#define ARB_WIRE_MAX_PROGRAMS (ARB_MAX_SEATS * 4)
/* Matches a worker may hold at once (its slots): more than any host runs
 * bots side by side; a hello claiming more is refused. */
#define ARB_WORKER_MAX_SLOTS 256
/* Results a worker keeps until acknowledged (a few KB to a few MB each):
 * hours of fast matches while the scheduler is away. */
#define ARB_WORKER_MAX_PENDING 4096
/* A transcript travels to the scheduler in chunks of at most this many
 * bytes (WIRE_TRANSCRIPT), each its own frame: well inside
 * ARB_WIRE_MAX_FRAME, and small enough that a chunk interleaves with
 * heartbeats; a 256 MiB transcript is 256 frames, within a worker's frame
 * budget (ARB_WORKER_FRAME_BURST). */
#define ARB_WIRE_TRANSCRIPT_CHUNK (1u << 20)
/* Transcript bytes the scheduler holds for one worker identity while they
 * arrive (every match it has in hand, before its result comes): two
 * transcripts of the largest size (ARB_MAX_TRANSCRIPT), while honest ones
 * are a few hundred KB. Past it a chunk is refused, and the result that
 * follows is not acknowledged (resent later, its chunks with it): one
 * worker cannot make the scheduler hold more than this. */
#define ARB_SCHED_TRANSCRIPT_HELD (512u << 20)
/* Transcripts the scheduler assembles at once for one worker identity:
 * its slots' results in flight, and one more. */
#define ARB_SCHED_TRANSCRIPTS_IN_FLIGHT (ARB_WORKER_MAX_SLOTS + 1)
/* Transcripts the scheduler assembles at once, for all workers: a pool's
 * slots finishing together; past it a chunk waits for its resend. */
#define ARB_SCHED_TRANSCRIPT_ASSEMBLIES 4096
/* All workers together: transcript bytes the scheduler holds at once
 * while they arrive. An identity past it has its chunk refused (its result
 * waits and is resent), so a thousand hostile keys hold 2 GiB, not 512 GiB. */
#define ARB_SCHED_TRANSCRIPT_HELD_TOTAL (2048ull << 20)
/* Programs a worker has asked for and not yet received: one assignment
 * needs at most ARB_WIRE_MAX_PROGRAMS; a worker with many slots a few. */
#define ARB_WORKER_MAX_FETCHES 64
/* Files an entrant names one by one (files: and a command's file words)
 * for bundle_build: a script and its modules; a larger program is given as
 * a directory or an archive (bundle_from_dir, bundle_from_archive). And a
 * path inside a bundle (POSIX's NAME_MAX; the longest path of a venv with
 * pip and numpy is ~110 bytes). */
#define ARB_BUNDLE_MAX_FILES 64
#define ARB_BUNDLE_MAX_PATH 255
/* Entries (files and symbolic links) in one bundle: a Python program with
 * its dependencies vendored or in a venv (a venv with pip is ~1,000 files,
 * with numpy and pandas ~5,000), four times that for room. The checker
 * holds an index of 24 bytes per entry (at most 384 KiB). */
#define ARB_BUNDLE_MAX_ENTRIES 16384
/* The bytes of all a bundle's files together: a venv with a small numeric
 * library (numpy's wheel unpacks to ~40 MiB, its own files ~30 MiB), or a
 * program with a model's weights of tens of MiB. The bundle is held whole
 * in memory where it is packed, stored (the record's programs.body, zstd),
 * sent (one WIRE_PROGRAM frame) and unpacked, a few at a time: 128 MiB is
 * what a scheduler and a worker host hold without trouble. */
#define ARB_BUNDLE_MAX_BYTES (128u << 20)
/* One file's bytes: a model's weights or a shared library (numpy's
 * OpenBLAS is ~35 MiB). */
#define ARB_BUNDLE_MAX_FILE_BYTES (64u << 20)
/* Directories deep a bundle's path goes (lib/python3.11/site-packages/
 * PKG/sub/sub/file is 7; the deepest in a venv with numpy is 9). */
#define ARB_BUNDLE_MAX_DEPTH 32
/* Symbolic links followed resolving one link's target inside a bundle
 * (the kernel's own MAXSYMLINKS). */
#define ARB_BUNDLE_MAX_HOPS 40
/* A symbolic link's target in a bundle (relative, a few "../" and a path). */
#define ARB_BUNDLE_MAX_LINK 1023
/* Components looked at resolving all of a bundle's links together: a venv
 * has a handful of links of a few components; a hostile bundle of 16,384
 * links of 40 hops each would take billions. */
#define ARB_BUNDLE_MAX_LINK_STEPS (1u << 20)
/* A bundle's encoded size: every file's bytes and, per entry, its path and
 * the msgpack headers (16 bytes at most). */
#define ARB_BUNDLE_MAX_ENCODED \
    ((size_t)ARB_BUNDLE_MAX_BYTES + (size_t)ARB_BUNDLE_MAX_ENTRIES * (ARB_BUNDLE_MAX_PATH + 16))
/* An archive (tar, tar.gz/xz/zst, zip) of a bot: its files' bytes and, per
 * entry, a tar's 512-byte header with its padding and a pax header (1.5 KiB);
 * a zip's headers are smaller. Compressed, it is smaller still. */
#define ARB_BUNDLE_MAX_ARCHIVE ((size_t)ARB_BUNDLE_MAX_BYTES + (size_t)ARB_BUNDLE_MAX_ENTRIES * 1536)

/* ---- The scheduler's pool ---------------------------------------------- */

/* Worker processes in one pool: ten times the largest pool we run; a
 * hello past it is refused (the pool is an array scanned per frame). */
#define ARB_POOL_MAX_WORKERS 1024
/* Distinct program bundles one scheduler builds and serves (every
 * entrant's programs of every running tournament). */
#define ARB_POOL_MAX_PROGRAMS 4096
/* Tournaments one scheduler runs at once (the daemon's active set): each
 * costs a few statements per loop turn (its counts), so the set stays
 * small; more running ones wait for a place and start when one ends. */
#define ARB_SCHED_MAX_TOURNAMENTS 32
/* The scheduler daemon waits out a database that fails for a passing
 * reason (its disk full, a restart, a lost connection, a deadlock:
 * store_failed_transiently) and tries again after 1 s, then 2 s, 4 s ...
 * up to 60 s apart: a restart is back within seconds, a disk freed by an
 * operator is seen within a minute, and a long outage costs one log line
 * a minute, not a storm of reconnections. A run of a minute without a
 * failure starts the doubling again from 1 s. */
#define ARB_DB_RETRY_FIRST_MS 1000
#define ARB_DB_RETRY_MAX_MS 60000
/* Public keys of workers a scheduler admits (worker_keys). */
#define ARB_ZAP_MAX_KEYS 4096

/* ---- Archives of a tournament (arbiter export / import) ---------------- */

/* Record rows in one archive member (a JSON array): a chunk closes at
 * whichever comes first, so that a ladder's million matches are written
 * and read a few MiB at a time, never as one text PostgreSQL would have to
 * parse whole (its limit is 1 GiB). */
#define ARB_ARCHIVE_CHUNK_ROWS 10000
#define ARB_ARCHIVE_CHUNK_BYTES (8u << 20)
/* A record member read back: a chunk, plus the one row that took it past
 * ARB_ARCHIVE_CHUNK_BYTES (a superseded snapshot of a 1,000-deal match is
 * a few hundred KB), with room to spare. */
#define ARB_ARCHIVE_MAX_RECORD_MEMBER (64u << 20)
/* Members of one archive: a ladder of a million matches, a transcript
 * each, its record chunks and programs, twice over. The manifest names
 * each in one line of at most ARB_ARCHIVE_MAX_LINE bytes (a SHA-256, a
 * size, a member name of at most 80). */
#define ARB_ARCHIVE_MAX_MEMBERS (1u << 21)
#define ARB_ARCHIVE_MAX_LINE 256
/* Everything an archive unpacks to: a million transcripts of tens of KB
 * are tens of GB; a compressed archive that claims more is a bomb, and
 * reading stops there. */
#define ARB_ARCHIVE_MAX_BYTES (1ull << 40)
/* ... and, before that, at most this many times the archive file's own
 * size plus ARB_ARCHIVE_UNPACK_SLACK, counting the tar's headers (what
 * libarchive has decompressed): what an export writes unpacks to ~3.3x
 * (transcripts) and ~2x (programs), so 64x is far above any archive of
 * ours; a bomb (1 GiB of one byte in a 34 KB file, or two million empty
 * members) is refused after a few tens of MiB, not after reading it all.
 * The slack covers a small archive's record chunks of repeated rows. */
#define ARB_ARCHIVE_UNPACK_RATIO 64u
#define ARB_ARCHIVE_UNPACK_SLACK (64ull << 20)

/* ---- Tournament and daemon files (YAML) -------------------------------- */

/* A tournament file, read whole: a few hundred entrants take tens of KB. */
#define ARB_TN_MAX_FILE (1u << 20)
/* A tournament's name. */
#define ARB_TN_MAX_NAME 128
/* Entrants of one tournament: far past any competition we know of; a
 * round robin's tables are bounded by ARB_MAX_TABLES anyway. */
#define ARB_TN_MAX_ENTRANTS 4096
/* Registrations one account may hold in one open tournament
 * (registration.per_account): a team that enters a few variants, never
 * an account that fills the field. */
#define ARB_REG_MAX_PER_ACCOUNT 64
/* How long a tournament may stay open for registration, from its
 * submission (registration.until): a year. A deadline further away is a
 * typo (2207 for 2027), and the scheduler keeps the tournament in its set
 * while it waits. */
#define ARB_REG_MAX_OPEN_S (366 * 86400)
/* Entries of one ladder over its whole life (every version of every name,
 * retired ones too): each joins as an entrant row, and the scheduler keeps
 * one started command per entry. The benchmark ladder holds 10,000. */
#define ARB_LADDER_MAX_ENTRIES 65536
/* A ladder's matches in flight at once (ladder.concurrent): each is a
 * lease on a worker's slot; a pool larger than this runs other
 * tournaments beside it. */
#define ARB_LADDER_MAX_CONCURRENT 256
/* A rejected ladder entry's verdict quotes the end of its bot's stderr in
 * the validation match (its own words: a traceback's last lines say what
 * went wrong): at most this many lines and bytes, so that the verdict
 * stays a line of `ladder list` and a cell of the entry's page. */
#define ARB_LADDER_VERDICT_STDERR_LINES 5
#define ARB_LADDER_VERDICT_STDERR 400

/* An entrant's command line, and its list of extra files. */
#define ARB_TN_MAX_COMMAND 1024
/* Deepest nesting of mappings and lists in any YAML file arbiter reads (a
 * tournament, a daemon's configuration). A tournament file nests three
 * levels (the file's mapping > entrants > an entrant's mapping), a daemon
 * file two; 32 leaves room for any honest layout. The cap exists because
 * libyaml 0.2.5 sets none of its own and its scanner rechecks every open
 * flow level at each token: a megabyte of "[" takes minutes to refuse
 * without it. Found before the document is loaded. */
#define ARB_YAML_MAX_DEPTH 32

/* A daemon's configuration file. The longest honest one is the fully
 * commented sample (about 10 KiB) with a few dozen tournament files listed;
 * 1 MiB is a hundred times that, and reading it whole stays cheap. A larger
 * file is refused before it is parsed. */
#define ARB_CONF_MAX_FILE (1u << 20)
/* Items of a list key (tournament files): more is a mistake, not a need. */
#define ARB_CONF_LIST_MAX 64

/* ---- The metrics endpoint ---------------------------------------------- */

/* The bytes one /metrics answer may hold. A daemon exports a few dozen
 * series, a few per worker or table: a few KiB. 256 KiB leaves room for a
 * thousand labeled series and still bounds what a scrape costs. A render
 * that fills it is answered with 500, not with a cut-off body that
 * Prometheus would misread. */
#define ARB_HTTP_BODY_CAP (256u << 10)

/* ---- `arbiter rate` ------------------------------------------------------ */

/* One match line of `arbiter rate`: up to WL_MAX_TEAMS (64) teams of
 * names and a rank. A card game's match names 3 or 4 players; 64 KiB
 * holds the largest honest line a hundred times over and bounds what one
 * line may cost. A longer line is refused, not cut. */
#define ARB_RATE_MAX_LINE 65536
/* A name on those lines, in bytes: the ladder's entry names are far
 * shorter (bot names are 32, ARB_MAX_BOT_NAME, plus a version suffix);
 * 128 leaves room for paths or e-mail-like names from other sources. */
#define ARB_RATE_MAX_NAME 128
/* Players in one match, all teams together: a table seats at most 4 and
 * Weng–Lin team games rarely exceed a few dozen; 256 keeps the per-match
 * arrays on the stack. */
#define ARB_RATE_MAX_PLAYERS 256
/* Distinct names over the whole input: a ladder of 10,000 entries is the
 * largest the issue plans for; a million is a hundred times that and
 * still under 200 MB of names and ratings. */
#define ARB_RATE_MAX_NAMES 1000000

/* ---- The web server (arbiter serve; docs/web.md) ---------------------- */

/* Connections held at once. Each has a thread of its own (a live page's
 * event stream waits on the record between its polls without stalling the
 * others); a thread of a 1 MiB stack that it barely touches costs little,
 * and `arbiter serve` raises its open-files limit to the hard one at
 * start. Past ARB_WEB_MAX_CONNECTIONS the library closes a new connection
 * unanswered, so from ARB_WEB_BUSY_CONNECTIONS on every request is
 * answered 503 with Retry-After and the connection closed: a crowd gets
 * a status, never a silent close. There is no limit per address (the
 * library's closes silently and would punish everyone behind one proxy or
 * NAT): per-client bounds below answer 429 instead. */
#define ARB_WEB_MAX_CONNECTIONS 2048u
#define ARB_WEB_BUSY_CONNECTIONS 1536u
/* Live pages (Server-Sent Events) at once: each polls the record every
 * second, but the streams of one tournament share one read a second, so
 * they cost threads rather than the record. Past it: 503 with
 * Retry-After. From one client: ARB_WEB_STREAMS_PER_CLIENT (a person has
 * a few tabs open; a 5th is 429). */
#define ARB_WEB_MAX_EVENT_STREAMS 256u
#define ARB_WEB_STREAMS_PER_CLIENT 4u
/* Read-only database sessions the pages are rendered on: a render takes
 * one and gives it back, so this many render at once on the 2 cores the
 * issue plans for (more would only queue in PostgreSQL). A request that
 * finds none free within ARB_WEB_POOL_WAIT_MS is answered 503 with
 * Retry-After. */
#define ARB_WEB_POOL_SESSIONS 6u
#define ARB_WEB_POOL_WAIT_MS 1500u
/* Heavy requests (a transcript; a tournament or ladder page that must be
 * rendered) in flight at once, in all and from one client: below the
 * pool's size, so light pages always find a session; two per client, so
 * one address fetching transcripts on 16 connections gets 429s while
 * everyone else is served. */
#define ARB_WEB_HEAVY_MAX 4u
#define ARB_WEB_HEAVY_PER_CLIENT 2u
/* Requests in flight from one client (a browser opens 6 connections per
 * host; 32 is five browsers behind one NAT): past it 429. */
#define ARB_WEB_REQUESTS_PER_CLIENT 32u
/* Clients with a request in flight the server tracks (its table of
 * per-client counts): past it 503. Above ARB_WEB_MAX_CONNECTIONS, so it
 * is full only when the connections are. */
#define ARB_WEB_MAX_CLIENTS 4096u
/* The seconds a 429 or 503 asks the client to wait (Retry-After). */
#define ARB_WEB_RETRY_AFTER_S 1u
/* Trusted proxies (`arbiter serve --trusted-proxy ADDR[/BITS]`) and the
 * X-Forwarded-For entries read from the right (a proxy chain is a few
 * hops; what lies further left is only the client's say). */
#define ARB_WEB_MAX_TRUSTED_PROXIES 16
#define ARB_WEB_XFF_HOPS 16
/* The render cache: answers kept in memory by route and what they show
 * (the record's change number; a finished match's transcript by its
 * digest), so a crowd on one page costs one render a second at most. The
 * bytes hold a few long transcripts (11 MiB each) and many pages; an
 * answer over ARB_WEB_CACHE_ENTRY_MAX is sent but not kept. A page keyed
 * by the change number is re-rendered after ARB_WEB_CACHE_FRESH_S even
 * when the record has not changed (a ladder page says how long ago). */
#define ARB_WEB_CACHE_BYTES (192u << 20)
#define ARB_WEB_CACHE_ENTRIES 1024u
#define ARB_WEB_CACHE_ENTRY_MAX (48u << 20)
#define ARB_WEB_CACHE_FRESH_S 10u
/* How long a request waits for another's render of the same answer
 * before it gives up (503): a long transcript renders in about 1.3 s. */
#define ARB_WEB_RENDER_WAIT_MS 5000u
/* A connection must send a whole request header within this many seconds
 * of opening (or of its previous answer), whatever its pace: a client
 * sending a byte a second is answered 408 and cut (the idle timeout
 * below only closes the silent). */
#define ARB_WEB_HEADER_DEADLINE_S 10u
/* Seconds a connection may stay silent before it is closed (slowloris); an
 * event stream sends a comment at least every ARB_WEB_KEEPALIVE_S. */
#define ARB_WEB_IDLE_TIMEOUT_S 30u
#define ARB_WEB_KEEPALIVE_S 10u
/* Per-connection memory for the request line and headers: a browser's GET
 * with its cookies and accept headers is 1-2 KiB; longer is answered 431. */
#define ARB_WEB_REQUEST_MEMORY (32u << 10)
/* The bytes one page or API answer may hold: the standings and crosstable
 * of ARB_TN_MAX_ENTRANTS entrants, or a ladder's 10,000 entries, are a few
 * MiB; past this the answer is 500 ("too large"), never cut short. */
#define ARB_WEB_PAGE_CAP (32u << 20)
/* The crosstable is drawn as a grid up to this many entrants (past it a
 * grid is no help on a screen; the JSON keeps every pair). */
#define ARB_WEB_GRID_MAX 40
/* The matches a tournament page lists under Rounds: a Swiss of 1,000
 * entrants plays 3,000 or more, a page of them all is most of a megabyte
 * nobody scrolls, and writing it took most of the page's time (`arbiter
 * bench web`). Past this the page says how many more there are and where
 * they are (the JSON, each entrant's page, each match's page). */
#define ARB_WEB_LIST_MATCHES 500
/* A URL longer than this is not one of ours: 414 without parsing (the
 * longest route is under 60 bytes). */
#define ARB_WEB_MAX_URL 256
/* Entrants whose rating history a ladder's chart draws (the leaders). */
#define ARB_WEB_CHART_LINES 10
/* A ladder's leaderboard shows each entry's rank change over the ladder's
 * last this many matches: enough that a visitor returning after an hour
 * of a busy ladder sees who moved, few enough that the rating each entry
 * had before them is one indexed read of that many matches' history. */
#define ARB_WEB_RANK_WINDOW 20
/* Each entry's recent form: its last ARB_WEB_FORM results, found among the
 * ladder's last ARB_WEB_FORM_SCAN matches (so the page reads a bounded
 * part of a ladder of millions of matches; an entry idle for longer shows
 * fewer marks). */
#define ARB_WEB_FORM 5
#define ARB_WEB_FORM_SCAN 2000
/* The transcript answer (the transcript's records as JSON lines): a
 * 1,000-deal match is some tens of MiB of them; past this cap the answer
 * is 500, never cut (the viewer would show half a match as a whole). */
#define ARB_WEB_TRANSCRIPT_CAP (256u << 20)
/* `arbiter serve` streams the transcript answer: its JSON lines made
 * ARB_WEB_STREAM_CHUNK at a time as the client reads (a stream holds the
 * raw transcript and one chunk, not the tens of MiB of JSON; a single
 * record's lines may pass the chunk, up to ARB_WEB_TRANSCRIPT_CAP). One
 * whose whole answer came under ARB_WEB_STREAM_KEEP_MAX is kept in the
 * render cache (the next request is a copy); longer ones are made again
 * per request, so a few long transcripts never fill the cache. */
#define ARB_WEB_STREAM_CHUNK (64u << 10)
#define ARB_WEB_STREAM_KEEP_MAX (4u << 20)
/* The raw transcripts that streams being sent hold, in all: a stream makes
 * its lines only as fast as its client reads, so what a slow reader costs
 * is memory, not a share of ARB_WEB_HEAVY_MAX (which bounds renders, and
 * which a few slow readers would otherwise hold for hours); beyond it a
 * transcript is answered 503 with Retry-After. */
#define ARB_WEB_STREAM_BYTES (256u << 20)

/* ---- The participant API (/api/v1/, docs/api.md) ----------------------- */

/* A bot bundle's upload body: an archive up to ARB_BUNDLE_MAX_ARCHIVE or
 * a bundle up to ARB_WIRE_MAX_BUNDLE (what the record keeps and a worker
 * fetches), whichever is larger. Refused from Content-Length, before a
 * byte of the body is read. */
#define ARB_API_BODY_MAX ((size_t)ARB_BUNDLE_MAX_ARCHIVE > (size_t)ARB_WIRE_MAX_BUNDLE ? (size_t)ARB_BUNDLE_MAX_ARCHIVE \
                                                                                   : (size_t)ARB_WIRE_MAX_BUNDLE)
/* Body bytes all API requests may hold at once, reserved from each
 * request's Content-Length before a byte is read and given back when it is
 * answered: past it 503 with Retry-After. Each body is read whole into
 * memory (and an archive made into a bundle beside it), and one client may
 * hold ARB_WEB_REQUESTS_PER_CLIENT requests: without this bound one token
 * could make the server hold 32 × ARB_API_BODY_MAX (some 5 GiB). */
#define ARB_API_BODIES_MAX (2 * ARB_API_BODY_MAX)
/* A JSON body (a dispute, a resolution): a reason of a few hundred bytes. */
#define ARB_API_JSON_MAX (16u << 10)
/* A dispute's reason or an arbiter's resolution, from `arbiter dispute`
 * or the API: a paragraph, printed whole by `dispute show` and kept in
 * the event log (whose detail is cut at 2000). */
#define ARB_DISPUTE_MAX_REASON 2000u
/* A tournament file submitted over the API (POST /api/v1/tournaments): a
 * file `arbiter submit` would take, refused from Content-Length. */
#define ARB_API_YAML_MAX ((size_t)ARB_TN_MAX_FILE)
/* Requests per account per minute (every /api/v1/ route): a client polling
 * its entries every few seconds is far below; a script in a loop is cut
 * off with 429 and Retry-After. */
#define ARB_API_REQUESTS_PER_MIN 120u
/* Bad tokens per client address per minute before every API request from
 * that address is answered 429 (guessing a 256-bit token is hopeless; this
 * keeps a guesser from costing the record a lookup a request). */
#define ARB_API_FAILURES_PER_MIN 20u
/* Accounts and addresses the in-memory counters follow at once: past it
 * the oldest minute's entries are dropped (never an unbounded table). */
#define ARB_API_RATE_SLOTS 4096u
/* Per account, unless `arbiter account add|set` gives its own: uploads a
 * day, bytes uploaded a day, and entries validating or active in one
 * ladder (a participant runs a few versions, not a farm). */
#define ARB_API_UPLOADS_PER_DAY 50
#define ARB_API_BYTES_PER_DAY ((long long)512 << 20)
#define ARB_API_ENTRIES_PER_LADDER 3
/* Sessions the API writes through (as the web's role, arbiter_web): writes
 * are few (uploads, retirements); a request waits for one up to
 * ARB_WEB_POOL_WAIT_MS, then 503. */
#define ARB_API_SESSIONS 3u
/* An account's name: [a-z0-9_-], as an entrant name's alphabet. */
#define ARB_ACCOUNT_MAX_NAME 64
/* env=K=V pairs of a join (docs/api.md), each at most ARB_API_ENV_MAX bytes. */
#define ARB_API_MAX_ENV 16
#define ARB_API_ENV_MAX 512
/* The entry logs route: the latest matches of an entry it shows. */
#define ARB_API_LOG_MATCHES 20

/* ---- The participant API's client (arbiter join, arbiter remote) -------- */

/* A server's URL (--server): scheme, host, port and a path prefix. */
#define ARB_REMOTE_MAX_URL 1024
/* A token file's bytes: a token is "arb1_" and 64 hex digits (69 bytes);
 * a file much longer than that is not a token file (a key, a log). */
#define ARB_REMOTE_TOKEN_MAX 256
/* An answer held in memory (me, entries, logs: the latest matches' stderr
 * tails of an entry's seats): past it the answer is refused, never cut. A
 * transcript (written as it comes, to a file or stdout) has the web's own
 * bound, ARB_WEB_TRANSCRIPT_CAP. */
#define ARB_REMOTE_REPLY_MAX (16u << 20)
/* Connecting (name lookup and TLS handshake included) gives up after
 * ARB_REMOTE_CONNECT_S; a request as a whole after ARB_REMOTE_TIMEOUT_S
 * unless --timeout says otherwise (the largest bundle, ARB_WIRE_MAX_BUNDLE,
 * takes some 20 minutes at 1 Mbit/s); a transfer slower than
 * ARB_REMOTE_LOW_SPEED_BYTES a second for ARB_REMOTE_LOW_SPEED_S is a
 * stalled one, given up whatever the total. */
#define ARB_REMOTE_CONNECT_S 15
#define ARB_REMOTE_TIMEOUT_S 3600
#define ARB_REMOTE_LOW_SPEED_BYTES 64
#define ARB_REMOTE_LOW_SPEED_S 30
/* --env K=V pairs a join may pass (each bounded by the server). */
#define ARB_REMOTE_MAX_ENV 16
/* A dispute's reason (--reason): a few sentences. */
#define ARB_REMOTE_MAX_REASON 2000

#endif
