#!/bin/sh
# log_received.sh BOT [ARG...] — runs BOT as the bot and keeps a copy of
# every line the referee sends it in received.log, in the bot's working
# directory (arbiter match --keep-workdir leaves it there): what a seat is
# told, as the seat received it.
tee received.log | "$@"
