#!/bin/sh
# Hostile (run from a program cache): tries to read another entrant's
# program, the transcript being written, to list the cache, and its own
# program's neighbour file; one line with what it got. Arguments are
# p=PATH (not file names, so that the referee binds none of them back).
r() { if cat "$1" 2>/dev/null | grep -q .; then echo read; else echo hidden; fi; }
other=${1#p=} transcript=${2#p=} cache=${3#p=} own=${4#p=}
n=$(ls "$cache" 2>/dev/null | wc -l)
echo "other:$(r "$other") transcript:$(r "$transcript") listed:$n own:$(r "$own")"
