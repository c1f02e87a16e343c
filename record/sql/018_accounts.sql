-- 018_accounts.sql — the people who compete (docs/api.md, docs/security.md):
-- accounts with a role and a bearer token kept only as its SHA-256, their
-- quotas and the day's use of them, the audit log of every write made
-- through the participant API or `arbiter account`, and the owner of a
-- ladder entry joined through the API (its program uploaded, played from
-- the record). The web's database role, arbiter_web, reads what its pages
-- and routes read and writes only through the SECURITY DEFINER functions
-- below: a web session (SET ROLE arbiter_web) cannot UPDATE a table.

CREATE TABLE accounts (
    id               bigserial PRIMARY KEY,
    name             text NOT NULL UNIQUE CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,63}$'),
    role             text NOT NULL CHECK (role IN ('participant', 'arbiter', 'organiser')),
    token_hash       text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    created_at       timestamptz NOT NULL DEFAULT now(),
    last_used_at     timestamptz,
    revoked_at       timestamptz,
    rotated_at       timestamptz,
    -- quotas: NULL is the default of arb_limits.h
    uploads_per_day  int CHECK (uploads_per_day >= 0),
    bytes_per_day    bigint CHECK (bytes_per_day >= 0),
    entries_max      int CHECK (entries_max >= 0)
);

-- An account's use of its daily quotas (UTC days).
CREATE TABLE account_usage (
    account_id bigint NOT NULL REFERENCES accounts ON DELETE CASCADE,
    day        date NOT NULL,
    uploads    int NOT NULL DEFAULT 0,
    bytes      bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day)
);

-- Every write: who (the account's name; "cli:USER" for the host's shell),
-- what, on what, the outcome in words, from where (the web's client rule:
-- behind a trusted proxy the right-most untrusted X-Forwarded-For), when.
CREATE TABLE audit_log (
    id       bigserial PRIMARY KEY,
    at       timestamptz NOT NULL DEFAULT now(),
    account  text NOT NULL,
    action   text NOT NULL,
    target   text NOT NULL DEFAULT '',
    detail   text NOT NULL DEFAULT '',
    address  text NOT NULL DEFAULT '',
    ok       boolean NOT NULL DEFAULT true
);
CREATE INDEX audit_log_account ON audit_log (account, at);

-- A ladder entry's owner (NULL: the organiser's, from the file or the
-- host's `ladder join`) and whether its program was uploaded (then it
-- plays the program recorded in entrant_programs, never files on a disk).
ALTER TABLE ladder_entries ADD COLUMN account_id bigint REFERENCES accounts,
                           ADD COLUMN uploaded boolean NOT NULL DEFAULT false;
CREATE INDEX ladder_entries_account ON ladder_entries (account_id) WHERE account_id IS NOT NULL;

-- ---- the web's role ---------------------------------------------------------
-- Made when missing by whoever migrates, if it may create roles (a
-- superuser, CREATEROLE); otherwise the operator makes it (docs/operations.md)
-- and the web runs as its login role. Roles are the cluster's: records in
-- one cluster share it, its grants are each database's.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'arbiter_web') THEN
        BEGIN
            CREATE ROLE arbiter_web NOLOGIN;
        EXCEPTION WHEN insufficient_privilege THEN
            RAISE NOTICE 'arbiter_web not created (no CREATEROLE): the web runs as its login role';
        END;
    END IF;
END $$;

-- The API's writes, as the record's owner, each in its caller's
-- transaction (one statement: one transaction), each writing its audit row.

-- A token's account: id, name, role, the stored hash (compared by the
-- caller in constant time), revoked or not; last_used_at kept to the
-- minute (a write at most once a minute per account, not per request).
CREATE FUNCTION arb_api_auth(p_hash text)
RETURNS TABLE (id bigint, name text, role text, token_hash text, revoked boolean)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    RETURN QUERY SELECT a.id, a.name, a.role, a.token_hash, a.revoked_at IS NOT NULL
                 FROM accounts a WHERE a.token_hash = p_hash;
    UPDATE accounts a SET last_used_at = now()
    WHERE a.token_hash = p_hash AND a.revoked_at IS NULL
      AND (a.last_used_at IS NULL OR a.last_used_at < now() - interval '1 minute');
END $$;

-- Whether the record has accounts (the API is on only then).
CREATE FUNCTION arb_api_on() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT EXISTS (SELECT 1 FROM accounts)
$$;

-- An account's quotas and today's use: uploads, bytes, entries (validating
-- or active, all ladders), with the defaults given by the caller.
CREATE FUNCTION arb_api_quota(p_account bigint)
RETURNS TABLE (uploads_today int, uploads_per_day int, bytes_today bigint, bytes_per_day bigint,
               entries int, entries_max int)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT coalesce(u.uploads, 0), a.uploads_per_day, coalesce(u.bytes, 0), a.bytes_per_day,
           (SELECT count(*)::int FROM ladder_entries le
             WHERE le.account_id = a.id AND le.status IN ('validating', 'active')),
           a.entries_max
    FROM accounts a
    LEFT JOIN account_usage u ON u.account_id = a.id AND u.day = (now() AT TIME ZONE 'UTC')::date
    WHERE a.id = p_account
$$;

CREATE FUNCTION arb_api_audit(p_account text, p_action text, p_target text, p_detail text, p_address text,
                              p_ok boolean)
RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    INSERT INTO audit_log (account, action, target, detail, address, ok)
    VALUES (left(p_account, 100), left(p_action, 64), left(p_target, 300), left(p_detail, 2000),
            left(p_address, 64), p_ok)
$$;

-- A ladder join with an uploaded program. Refusals raise SQLSTATE
-- AR400 (bad input), AR404 (no such ladder), AR409 (not running, name
-- another's, name taken), AR429 (a quota), with the message to show.
-- The defaults of the quotas come from the caller (arb_limits.h).
CREATE FUNCTION arb_api_join(p_account bigint, p_ladder text, p_base text, p_command text, p_digest text,
                             p_size bigint, p_codec text, p_body bytea, p_argi int[], p_paths text[],
                             p_replace boolean, p_address text, p_uploads_default int,
                             p_bytes_default bigint, p_entries_default int, p_max_entries int)
RETURNS TABLE (entrant int, version int, entry text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    acc accounts;
    tid bigint;
    st text;
    fmt text;
    nxt int;
    cnt int;
    ver int;
    prev int;
    prev_owner bigint;
    nm text;
    used_up int;
    used_bytes bigint;
    mine int;
    today date := (now() AT TIME ZONE 'UTC')::date;
BEGIN
    SELECT * INTO acc FROM accounts WHERE id = p_account AND revoked_at IS NULL;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the account is revoked' USING ERRCODE = 'AR401';
    END IF;
    SELECT t.id, t.state, t.format INTO tid, st, fmt FROM tournaments t WHERE t.name = p_ladder
    ORDER BY t.id DESC LIMIT 1 FOR UPDATE;
    IF NOT FOUND OR fmt <> 'ladder' THEN
        RAISE EXCEPTION 'no ladder named "%"', left(p_ladder, 100) USING ERRCODE = 'AR404';
    END IF;
    IF st <> 'running' THEN
        RAISE EXCEPTION 'the ladder "%" is over: it takes no entries', left(p_ladder, 100) USING ERRCODE = 'AR409';
    END IF;
    -- quotas: today's uploads and bytes, entries in this ladder
    INSERT INTO account_usage (account_id, day) VALUES (acc.id, today) ON CONFLICT DO NOTHING;
    SELECT u.uploads, u.bytes INTO used_up, used_bytes FROM account_usage u
    WHERE u.account_id = acc.id AND u.day = today FOR UPDATE;
    IF used_up + 1 > coalesce(acc.uploads_per_day, p_uploads_default) THEN
        RAISE EXCEPTION 'quota: % uploads today, the limit of the account (uploads_per_day)', used_up
            USING ERRCODE = 'AR429';
    END IF;
    IF used_bytes + p_size > coalesce(acc.bytes_per_day, p_bytes_default) THEN
        RAISE EXCEPTION 'quota: % bytes uploaded today and % more would pass the account''s bytes_per_day (%)',
            used_bytes, p_size, coalesce(acc.bytes_per_day, p_bytes_default) USING ERRCODE = 'AR429';
    END IF;
    SELECT coalesce(max(le.version), 0) + 1 INTO ver FROM ladder_entries le
    WHERE le.tournament_id = tid AND le.base = p_base;
    SELECT le.entrant, le.account_id INTO prev, prev_owner FROM ladder_entries le
    WHERE le.tournament_id = tid AND le.base = p_base ORDER BY le.version DESC LIMIT 1;
    IF ver > 1 AND (prev_owner IS NULL OR prev_owner <> acc.id) THEN
        RAISE EXCEPTION 'the name "%" is another entrant''s in this ladder', p_base USING ERRCODE = 'AR409';
    END IF;
    IF ver = 1 AND p_replace THEN
        RAISE EXCEPTION 'replace=1: you have no entry called "%" in this ladder', p_base USING ERRCODE = 'AR404';
    END IF;
    SELECT count(*) INTO mine FROM ladder_entries le
    WHERE le.tournament_id = tid AND le.account_id = acc.id AND le.status IN ('validating', 'active')
      AND NOT (p_replace AND le.entrant = prev);
    IF mine + 1 > coalesce(acc.entries_max, p_entries_default) THEN
        RAISE EXCEPTION 'quota: % entries validating or active in this ladder, the limit of the account (entries); retire one or join with replace=1', mine
            USING ERRCODE = 'AR429';
    END IF;
    SELECT coalesce(max(e.idx) + 1, 0), count(*) INTO nxt, cnt FROM entrants e WHERE e.tournament_id = tid;
    IF cnt >= p_max_entries THEN
        RAISE EXCEPTION 'the ladder has % entries, its limit', cnt USING ERRCODE = 'AR409';
    END IF;
    nm := CASE WHEN ver = 1 THEN p_base ELSE p_base || '.v' || ver END;
    IF length(nm) > 32 THEN
        RAISE EXCEPTION 'name: "%" is too long (a version''s name is NAME.vN)', nm USING ERRCODE = 'AR400';
    END IF;
    IF EXISTS (SELECT 1 FROM entrants e WHERE e.tournament_id = tid AND e.name = nm) THEN
        RAISE EXCEPTION 'the name "%" is taken in this ladder', nm USING ERRCODE = 'AR409';
    END IF;
    INSERT INTO programs (digest, size, codec, body) VALUES (p_digest, p_size, p_codec, p_body)
    ON CONFLICT (digest) DO NOTHING;
    INSERT INTO entrants (tournament_id, idx, name, command) VALUES (tid, nxt, nm, p_command);
    INSERT INTO ladder_entries (tournament_id, entrant, base, version, previous, replaces, status, verdict, digest,
                                account_id, uploaded)
    VALUES (tid, nxt, p_base, ver, prev, p_replace, 'validating', '', p_digest, acc.id, true);
    INSERT INTO entrant_programs (tournament_id, entrant, digest, argi, paths)
    VALUES (tid, nxt, p_digest, p_argi, p_paths);
    UPDATE account_usage u SET uploads = u.uploads + 1, bytes = u.bytes + p_size
    WHERE u.account_id = acc.id AND u.day = today;
    INSERT INTO events (tournament_id, kind, detail)
    VALUES (tid, 'join', nm || ' joined (version ' || ver || ', uploaded by ' || acc.name
                         || CASE WHEN prev IS NULL THEN '' ELSE ', after entrant ' || prev END || ')');
    INSERT INTO audit_log (account, action, target, detail, address)
    VALUES (acc.name, 'join', p_ladder || '/' || nm,
            'version ' || ver || ', program ' || p_digest || ' (' || p_size || ' bytes)'
            || CASE WHEN p_replace THEN ', replaces ' || p_base ELSE '' END, left(p_address, 64));
    RETURN QUERY SELECT nxt, ver, nm;
END $$;

-- Retire an entry: the caller's own (or any, p_any: an arbiter or
-- organiser). 404 (AR404) for one that is not there or not the caller's.
CREATE FUNCTION arb_api_retire(p_account bigint, p_any boolean, p_ladder text, p_entry text, p_address text)
RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    acc accounts;
    tid bigint;
    ent int;
    st text;
BEGIN
    SELECT * INTO acc FROM accounts WHERE id = p_account AND revoked_at IS NULL;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the account is revoked' USING ERRCODE = 'AR401';
    END IF;
    SELECT t.id INTO tid FROM tournaments t WHERE t.name = p_ladder AND t.format = 'ladder'
    ORDER BY t.id DESC LIMIT 1 FOR NO KEY UPDATE;
    SELECT le.entrant, le.status INTO ent, st FROM ladder_entries le JOIN entrants e
        ON e.tournament_id = le.tournament_id AND e.idx = le.entrant
    WHERE le.tournament_id = tid AND e.name = p_entry AND (p_any OR le.account_id = acc.id);
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no entry "%" of yours in ladder "%"', left(p_entry, 100), left(p_ladder, 100)
            USING ERRCODE = 'AR404';
    END IF;
    IF st NOT IN ('validating', 'active', 'suspended') THEN
        RAISE EXCEPTION 'the entry "%" is % already', p_entry, st USING ERRCODE = 'AR409';
    END IF;
    UPDATE ladder_entries le SET status = 'retired', retired_at = now(),
           verdict = 'retired ' || to_char(now(), 'YYYY-MM-DD HH24:MI') || ' by ' || acc.name,
           changed = nextval('record_changes')
    WHERE le.tournament_id = tid AND le.entrant = ent;
    INSERT INTO events (tournament_id, kind, detail) VALUES (tid, 'retire', p_entry || ' retired by ' || acc.name);
    INSERT INTO audit_log (account, action, target, detail, address)
    VALUES (acc.name, 'retire', p_ladder || '/' || p_entry, 'was ' || st, left(p_address, 64));
    RETURN 'retired';
END $$;

-- What the web's role may do, granted when the role exists: at this
-- migration and again by `arbiter account add` (a record migrated before
-- the role was made gets its grants when its API is turned on). Functions
-- are executable by PUBLIC unless revoked: these only by arbiter_web (and
-- the owner).
CREATE FUNCTION arb_web_grants() RETURNS boolean
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'arbiter_web') THEN
        RETURN false;
    END IF;
    EXECUTE 'GRANT SELECT ON tournaments, teams, entrants, rounds, matches, match_seats, match_sides, deals, '
         || 'penalties, ratings, rating_history, ladder_entries, disputes, superseded, placements, events, '
         || 'workers, transcripts, transcripts_pruned, entrant_programs, standings, crosstable, '
         || 'team_standings, team_crosstable, schema_migrations TO arbiter_web';
    EXECUTE 'GRANT EXECUTE ON FUNCTION arb_api_on(), arb_api_auth(text), arb_api_quota(bigint), '
         || 'arb_api_audit(text, text, text, text, text, boolean), '
         || 'arb_api_join(bigint, text, text, text, text, bigint, text, bytea, int[], text[], boolean, text, int, bigint, int, int), '
         || 'arb_api_retire(bigint, boolean, text, text, text) TO arbiter_web';
    RETURN true;
END $$;
REVOKE EXECUTE ON FUNCTION arb_api_on(), arb_api_auth(text), arb_api_quota(bigint),
    arb_api_audit(text, text, text, text, text, boolean),
    arb_api_join(bigint, text, text, text, text, bigint, text, bytea, int[], text[], boolean, text, int, bigint, int, int),
    arb_api_retire(bigint, boolean, text, text, text), arb_web_grants() FROM PUBLIC;
SELECT arb_web_grants();
