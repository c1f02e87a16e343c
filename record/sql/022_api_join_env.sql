-- 022_api_join_env.sql — a join over the API declares its start-up
-- budget and environment as `ladder join --startup-ms --env` does (020's
-- ladder_entries.startup_ms and env; docs/api.md): arb_api_join with two
-- more arguments. The web has checked every variable (match_env_check:
-- names, refused names, values, how many); the ladder's limit on the
-- budget is checked here, against tournaments.ladder_startup_max, under
-- the ladder's row lock that 018's join takes. The 16-argument join is
-- no longer the web's to call.
CREATE FUNCTION arb_api_join(p_account bigint, p_ladder text, p_base text, p_command text, p_digest text,
                             p_size bigint, p_codec text, p_body bytea, p_argi int[], p_paths text[],
                             p_replace boolean, p_address text, p_uploads_default int,
                             p_bytes_default bigint, p_entries_default int, p_max_entries int,
                             p_startup_ms int, p_env text[])
RETURNS TABLE (entrant int, version int, entry text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    tid bigint;
    lim int;
    j record;
BEGIN
    IF cardinality(p_env) > 16 THEN
        RAISE EXCEPTION 'env: more than 16 variables' USING ERRCODE = 'AR400';
    END IF;
    SELECT * INTO j FROM arb_api_join(p_account, p_ladder, p_base, p_command, p_digest, p_size, p_codec, p_body,
                                      p_argi, p_paths, p_replace, p_address, p_uploads_default, p_bytes_default,
                                      p_entries_default, p_max_entries);
    -- the ladder's row is locked (FOR UPDATE) by the join above
    SELECT t.id, coalesce(t.ladder_startup_max, 0) INTO tid, lim FROM tournaments t WHERE t.name = p_ladder
    ORDER BY t.id DESC LIMIT 1;
    IF p_startup_ms IS NOT NULL AND p_startup_ms > lim THEN
        IF lim > 0 THEN
            RAISE EXCEPTION 'startup_ms: % is over the ladder''s limit, % ms (its file''s clock.startup_ms_max, else clock.startup_ms)',
                p_startup_ms, lim USING ERRCODE = 'AR400';
        END IF;
        RAISE EXCEPTION 'startup_ms: the ladder''s limit is not in the record yet (its scheduler writes it when it takes the ladder up)'
            USING ERRCODE = 'AR400';
    END IF;
    UPDATE ladder_entries le SET startup_ms = p_startup_ms, env = coalesce(p_env, '{}')
    WHERE le.tournament_id = tid AND le.entrant = j.entrant;
    RETURN QUERY SELECT j.entrant, j.version, j.entry;
END $$;
REVOKE EXECUTE ON FUNCTION arb_api_join(bigint, text, text, text, text, bigint, text, bytea, int[], text[], boolean,
                                        text, int, bigint, int, int, int, text[]) FROM PUBLIC;

ALTER FUNCTION arb_web_grants() RENAME TO arb_web_grants_019;
CREATE FUNCTION arb_web_grants() RETURNS boolean
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
    IF NOT arb_web_grants_019() THEN
        RETURN false;
    END IF;
    EXECUTE 'REVOKE EXECUTE ON FUNCTION arb_api_join(bigint, text, text, text, text, bigint, text, bytea, int[], '
         || 'text[], boolean, text, int, bigint, int, int) FROM arbiter_web';
    EXECUTE 'GRANT EXECUTE ON FUNCTION arb_api_join(bigint, text, text, text, text, bigint, text, bytea, int[], '
         || 'text[], boolean, text, int, bigint, int, int, int, text[]) TO arbiter_web';
    RETURN true;
END $$;
REVOKE EXECUTE ON FUNCTION arb_web_grants(), arb_web_grants_019() FROM PUBLIC;
SELECT arb_web_grants();
