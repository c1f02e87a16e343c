-- 003_secret.sql — the tournament's secret for keyed seeds (docs/rng.md).
--
-- Every deal and bot seed of a tournament is derived from its seed AND this
-- 32-byte secret with keyed BLAKE2b, so no bot can compute a deal from what
-- it is told. The secret is drawn at the tournament's first start (or given
-- by the organiser: --secret-file), kept here and nowhere a bot can read;
-- its SHA-256 (commitment) is public from the start (`arbiter status`), the
-- secret itself is revealed (`arbiter status`, `arbiter standings`) when the
-- tournament is done, and then `arbiter replay --secret` proves that every
-- deal followed from seed + secret.
ALTER TABLE tournaments
    ADD COLUMN secret      bytea CHECK (secret IS NULL OR octet_length(secret) = 32),
    ADD COLUMN commitment  text,         -- lowercase hex SHA-256 of the secret
    ADD COLUMN revealed_at timestamptz;  -- set when the tournament is done: the secret may be shown
