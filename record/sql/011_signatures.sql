-- 011_signatures.sql — who produced a transcript (docs/transcripts.md,
-- "Signatures"). A referee signs the SHA-256 digest of every transcript it
-- writes with its Ed25519 key; the scheduler checks the signature against
-- the key the worker announced in its hello, over its authenticated
-- connection, and records both here beside the digest and the holder of
-- the lease (leased_by). A transcript is then evidence on its own: anyone
-- holding the referee's public key can check it, and `arbiter dispute show`
-- says whether the file carries this very signature.
ALTER TABLE matches
    ADD COLUMN signer_key text,       -- the referee's Ed25519 public key, hex (NULL: unsigned)
    ADD COLUMN signature  text;       -- its signature of the digest, hex
-- The key each worker announced in its latest hello: a scheduler that
-- restarted checks the results a worker resends before it says hello again.
ALTER TABLE workers
    ADD COLUMN sign_key   text;
