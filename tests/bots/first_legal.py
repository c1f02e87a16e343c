#!/usr/bin/env python3
# A minimal protocol bot with no SDK: asks for legal lists, always answers
# with the first legal item. Used by the match tests as a plain,
# deterministic opponent written the way a newcomer would.
import sys

def main():
    out = sys.stdout
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == "arbiter":
            out.write("bot 1 first legal\n")
        elif words[0] == "ask":
            items = words[words.index("legal") + 1:]
            out.write(items[0] + "\n")
        elif words[0] == "end":
            return
        else:
            continue
        out.flush()

main()
