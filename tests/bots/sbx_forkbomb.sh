#!/bin/sh
# Hostile neighbour: fills its uid's process table (children that sleep,
# until fork fails), then waits to be killed.
i=0
while [ $i -lt 4096 ]; do
    sleep 600 2>/dev/null &
    i=$((i + 1))
done
echo full
sleep 600
