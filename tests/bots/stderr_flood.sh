#!/bin/sh
# Hostile: floods stderr, then answers normally.
i=0; while [ $i -lt 2000 ]; do echo "noise noise noise noise noise noise noise noise noise $i" >&2; i=$((i+1)); done
while IFS= read -r line; do echo "ok $line"; done
