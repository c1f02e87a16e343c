#!/bin/sh
# slow_start.sh BOT: the bot BOT after a slow start (SLOW_START_S seconds:
# a large library imported), saying on stderr the variables its entrant
# declared and two the referee must keep to itself.
echo "slow_start: SLOW_SAY=${SLOW_SAY-unset} LD_PRELOAD=${LD_PRELOAD-unset} PATH=$PATH" >&2
sleep "${SLOW_START_S:-0}"
exec "$1"
