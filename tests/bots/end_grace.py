#!/usr/bin/env python3
# A protocol bot that answers with the first legal item and then, told
# "end", leaves as MODE says (tests/integration/end_grace.sh):
#   slowexit  write "goodbye from <pid>" on stderr, take 0.3 s, exit 0
#   linger    write "lingering" on stderr and never exit (killed after
#             the referee's grace)
import sys, time

def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "slowexit"
    out = sys.stdout
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == "arbiter":
            out.write("bot 1 end-grace legal\n")   # "legal": legal lists with every ask
        elif words[0] == "ask":
            items = words[words.index("legal") + 1:]
            out.write(items[0] + "\n")
        elif words[0] == "end":
            if mode == "linger":
                sys.stderr.write("lingering\n")
                sys.stderr.flush()
                while True:
                    time.sleep(60)
            sys.stderr.write("goodbye, written at exit\n")
            sys.stderr.flush()
            time.sleep(0.3)
            return
        else:
            continue
        out.flush()

main()
