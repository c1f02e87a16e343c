#!/bin/sh
# Hostile: tries to read a file the referee keeps from bots (argv[1], a
# transcript) and says whether it could.
if cat "$1" 2>/dev/null | grep -q .; then echo "read"; else echo "hidden"; fi
