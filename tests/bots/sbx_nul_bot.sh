#!/bin/sh
# Hostile: shakes hands, then answers every request with "pass<NUL>junk"
# (read as "pass" when the referee cut lines at a NUL).
while IFS= read -r line; do
    case "$line" in
    arbiter*) echo "bot 1 nulbot" ;;
    ask*) printf 'pass\000junk\n' ;;
    esac
done
