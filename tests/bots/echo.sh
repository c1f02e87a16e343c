#!/bin/sh
# A well-behaved test bot: answers every line with "echo <line>".
while IFS= read -r line; do echo "echo $line"; done
