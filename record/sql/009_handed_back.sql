-- 009_handed_back.sql — a worker's hand-backs apart from its lost leases.
-- A referee stopped cleanly (SIGTERM, systemctl stop) hands back what it
-- cannot finish: those leases went back to the queue by its word, not
-- because it fell silent, and `arbiter status` shows them as handed back
-- (`back`), never as lost.
ALTER TABLE workers ADD COLUMN leases_handed_back bigint NOT NULL DEFAULT 0;
COMMENT ON COLUMN workers.leases_lost IS 'leases returned to the queue because it went silent or no longer named them';
