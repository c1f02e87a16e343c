#!/bin/sh
# Bytes at the edges of the line limit and a NUL, one line each: exactly
# 4096 bytes, 4096 bytes ended by \r\n, 4097 bytes, "pass<NUL>junk",
# "pass<NUL>", then "after".
x=$(head -c 4096 /dev/zero | tr '\0' x)
printf '%s\n' "$x"
printf '%s\r\n' "$x"
printf '%sy\n' "$x"
printf 'pass\000junk\n'
printf 'pass\000\n'
printf 'after\n'
sleep 5
