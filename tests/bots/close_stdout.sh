#!/bin/sh
# Hostile: closes stdout and keeps running.
exec 1>&-
exec sleep 1000
