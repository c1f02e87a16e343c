#!/bin/sh
# Reports what the bot can see: environment size, open descriptors, limits.
echo "env $(env | wc -l) fds $(ls /proc/self/fd | wc -l) core $(ulimit -c) cwd $(pwd)"
