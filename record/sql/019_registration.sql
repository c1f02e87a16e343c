-- 019_registration.sql — open tournaments (schemas/tournament.md,
-- "Registration"): a tournament file's `registration:` block lets
-- entrants register themselves (arbiter register, the API's POST
-- /api/v1/tournaments/T/registrations) until a deadline or until
-- max_entrants have; then the scheduler closes it and the registered
-- become entrants after the file's, in an order keyed by the tournament's
-- secret (nobody chooses their place by when or under what name they
-- register), each playing the program it uploaded (programs,
-- entrant_programs: never files on the host).
ALTER TABLE tournaments
    ADD COLUMN registration_until       timestamptz,   -- NULL: no registration
    ADD COLUMN registration_max         int,           -- registrations in all
    ADD COLUMN registration_per_account int,           -- registrations one account may hold
    ADD COLUMN registration_closed_at   timestamptz,   -- when the scheduler closed it (entrants drawn)
    ADD COLUMN not_started              text,          -- why an open tournament did not start (too few entrants)
    ADD COLUMN submitted_by             text;          -- the account that submitted it over the API (NULL: a file)

CREATE TABLE registrations (
    id            bigserial PRIMARY KEY,            -- the order they came in (not the entrants' order)
    tournament_id bigint NOT NULL REFERENCES tournaments ON DELETE CASCADE,
    name          text NOT NULL,
    command       text NOT NULL,
    account       text,                             -- who registered it over the API (NULL: arbiter register)
    digest        text NOT NULL REFERENCES programs,
    argi          int[] NOT NULL,                   -- as entrant_programs: argument argi[k] is bundle file paths[k]
    paths         text[] NOT NULL,
    registered_at timestamptz NOT NULL DEFAULT now(),
    entrant       int,                              -- its entrants.idx once the registration closed
    CHECK (cardinality(argi) = cardinality(paths)),
    UNIQUE (tournament_id, name)
);
CREATE INDEX registrations_account ON registrations (tournament_id, account);

-- What the web's role reads of it (the API's match owners: a registered
-- entrant's account by name), granted with 018's by arb_web_grants(),
-- which `arbiter account add` runs again: accounts' id and name only,
-- never their token hashes. The API's registrations, disputes and
-- submissions are written on a session of the login role (docs/api.md,
-- "Writes"), not by arbiter_web.
ALTER FUNCTION arb_web_grants() RENAME TO arb_web_grants_018;
CREATE FUNCTION arb_web_grants() RETURNS boolean
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
    IF NOT arb_web_grants_018() THEN
        RETURN false;
    END IF;
    EXECUTE 'GRANT SELECT ON registrations TO arbiter_web';
    EXECUTE 'GRANT SELECT (id, name) ON accounts TO arbiter_web';
    RETURN true;
END $$;
REVOKE EXECUTE ON FUNCTION arb_web_grants(), arb_web_grants_018() FROM PUBLIC;
SELECT arb_web_grants();
