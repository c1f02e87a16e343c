#!/bin/sh
# Hostile: starts children that outlive it, then answers once.
sleep 1000 &
sleep 1000 &
echo "$$ started"
exec sleep 1000
