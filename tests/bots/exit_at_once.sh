#!/bin/sh
# Hostile: exits before reading anything.
exit 3
