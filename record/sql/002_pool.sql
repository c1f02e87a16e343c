-- 002_pool.sql — the worker pool and tournaments the scheduler daemon owns.
--
-- A tournament remembers the file it came from, so that `arbiter-scheduler`
-- can run (and after a restart resume) every tournament submitted to the
-- record (`arbiter submit FILE`) without being told again.
ALTER TABLE tournaments ADD COLUMN config_path text;

-- The referee workers a scheduler has heard from: what `arbiter status`
-- shows as the pool. Written by the scheduler as workers say hello, as
-- their heartbeats come (every few seconds) and when they go silent; a
-- scheduler starting anew marks every worker gone until it is heard again.
CREATE TABLE workers (
    name          text PRIMARY KEY,       -- the worker's identity (HOST-PID, or its configured name)
    slots         int NOT NULL,
    state         text NOT NULL CHECK (state IN ('connected', 'draining', 'gone')),
    running       int NOT NULL DEFAULT 0, -- leases in hand at the last heartbeat
    matches_done  bigint NOT NULL DEFAULT 0,  -- results recorded from it by this scheduler
    leases_lost   bigint NOT NULL DEFAULT 0,  -- leases returned to the queue when it went silent
    first_seen    timestamptz NOT NULL DEFAULT now(),
    last_seen     timestamptz NOT NULL DEFAULT now()
);
