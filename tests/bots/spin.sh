#!/bin/sh
# Hostile: burns CPU without answering.
while :; do :; done
