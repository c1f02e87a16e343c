-- 015_drop_bracket_links.sql — bracket_links (001) never held a row: no
-- statement of arbiter ever wrote or read it (knockouts find the next
-- round's tables from the finished matches, plan.c), so it goes.
DROP TABLE IF EXISTS bracket_links;
