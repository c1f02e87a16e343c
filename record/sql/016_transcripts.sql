-- 016_transcripts.sql — transcripts in the record (docs/transcripts.md,
-- "In the record"). A referee sends the transcript's bytes to the
-- scheduler, which checks them against the digest the referee signed and
-- keeps them here, content-addressed: a match's matches.digest (and a
-- superseded result's digest) names its row. The body is compressed with
-- zstd (codec 'zstd'); raw_size is the transcript's length uncompressed,
-- checked again when it is read. A referee's own copy is then only a
-- cache: verify, dispute, replay, report and the web read this table.
CREATE TABLE transcripts (
    digest     text PRIMARY KEY CHECK (digest ~ '^[0-9a-f]{64}$'),
    raw_size   bigint NOT NULL CHECK (raw_size >= 0),
    codec      text NOT NULL CHECK (codec IN ('zstd', 'none')),
    body       bytea NOT NULL,
    stored_at  timestamptz NOT NULL DEFAULT now()
);

-- A transcript removed by retention (`arbiter transcripts prune`,
-- docs/transcripts.md "Retention"): its digest, how long it was and when
-- it went, so that verify and dispute say "pruned on DATE by retention"
-- rather than that it is missing. Never a disputed or a knockout match's.
CREATE TABLE transcripts_pruned (
    digest     text PRIMARY KEY CHECK (digest ~ '^[0-9a-f]{64}$'),
    raw_size   bigint NOT NULL,
    pruned_at  timestamptz NOT NULL DEFAULT now()
);
