#!/bin/sh
# Hostile: never answers.
exec sleep 1000
