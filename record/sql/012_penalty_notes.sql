-- 012_penalty_notes.sql — a penalty's note: what the referee said happened
-- (the reason in words, the bot's reply quoted, a stray-line hint), as the
-- transcript's penalty record holds it. The worker's result carries each
-- penalty since wire version 5 (the first ARB_MAX_RESULT_PENALTIES of a
-- match; the rest are counted in match_seats.penalties and are in the
-- transcript), and the scheduler writes them here with the result. The
-- note may quote a bot: text from a bot, valid UTF-8 without control
-- characters (the wire refuses anything else), to be escaped when shown.
ALTER TABLE penalties ADD COLUMN note text NOT NULL DEFAULT '';
COMMENT ON COLUMN penalties.slot IS 'the penalised bot''s index in the match (match_seats.slot)';
COMMENT ON COLUMN penalties.reason IS 'the reason code (bot-protocol.md): timeout, illegal, malformed ...';
COMMENT ON COLUMN penalties.consequence IS 'what it cost: autoplay, forfeit-deal or forfeit-match';
