#!/bin/sh
# Hostile (an entrant of `arbiter run`): tries to read another entrant's
# file in the tournament's tree and to list the tree, then plays. What it
# found is told by how it plays, the only channel out of its sandbox: it
# replies garbage once (one penalty, in the record) when it read or listed
# anything, and plays cleanly when everything was hidden.
# usage: tree_peek.sh p=OTHER_FILE p=TREE p=OUTSIDE_FILE (p= so that the
# scheduler ships none of them as the bot's own files); OUTSIDE_FILE lies
# outside the tournament's tree (another tournament's state, a secret file
# of the organiser's). hostile_bot is shipped beside it (files:).
other=${1#p=} tree=${2#p=} outside=${3#p=} bots=$(dirname "$0")
if [ -r "$other" ] && grep -q . "$other" 2>/dev/null; then exec "$bots/hostile_bot" garbage 1; fi
if [ -r "$outside" ] && grep -q . "$outside" 2>/dev/null; then exec "$bots/hostile_bot" garbage 1; fi
if [ "$(ls "$tree" 2>/dev/null | wc -l)" -gt 0 ]; then exec "$bots/hostile_bot" garbage 1; fi
exec "$bots/hostile_bot" honest
