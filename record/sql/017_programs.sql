-- 017_programs.sql — the entrants' programs in the record (issue 28). A
-- bot's program is the bundle of its command's files (proto/bundle.h: a
-- msgpack list of [path, mode, bytes], named by its SHA-256). The
-- scheduler packs each entrant's bundle when it takes a tournament up and
-- keeps it here, content-addressed, before any match is played; referee
-- workers on other hosts fetch it from here (FETCH/PROGRAM), and a match
-- is played again from here when the files it was packed from are gone
-- (docs/disputes.md, "Reruns"). The scheduler's cache of files is only a
-- cache: the record alone re-derives every verdict.
CREATE TABLE programs (
    digest     text PRIMARY KEY CHECK (digest ~ '^[0-9a-f]{64}$'),
    size       bigint NOT NULL CHECK (size > 0),   -- the bundle's length uncompressed
    codec      text NOT NULL CHECK (codec IN ('zstd', 'none')),
    body       bytea NOT NULL,
    stored_at  timestamptz NOT NULL DEFAULT now()
);

-- Which program an entrant of a tournament plays, and where in its command
-- the bundle's files go: argument argi[k] of the command is the file
-- paths[k] of the bundle. The first start records it; a later start whose
-- files give another digest (changed, or gone) plays the recorded program
-- (scheduler/programs.c): a tournament's programs do not change under it.
CREATE TABLE entrant_programs (
    tournament_id bigint NOT NULL,
    entrant       int NOT NULL,
    digest        text NOT NULL REFERENCES programs,
    argi          int[] NOT NULL,
    paths         text[] NOT NULL,
    recorded_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, entrant),
    FOREIGN KEY (tournament_id, entrant) REFERENCES entrants (tournament_id, idx) ON DELETE CASCADE,
    CHECK (cardinality(argi) = cardinality(paths))
);
CREATE INDEX entrant_programs_digest ON entrant_programs (digest);
