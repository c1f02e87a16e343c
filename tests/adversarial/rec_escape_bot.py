#!/usr/bin/env python3
# rec_escape_bot.py — a bot whose every byte that reaches a terminal is an
# attack on it: its hello name, its replies and its stderr carry ANSI/OSC
# escape sequences (clear the screen, retitle the window, colours), C0/C1
# controls, a carriage return, a bidirectional override and invalid UTF-8.
# It plays the first legal move between garbage replies, then dies on its
# fourth request so that `arbiter match` prints the end of its stderr.
# With the argument "hello" its handshake itself carries the attack.
import sys

EVIL = b"\x1b[2J\x1b]0;pwned\x07\x1b[31mred\r\x08\x7f\xc2\x9b31m\xe2\x80\xaeevil\xff"

def main():
    out = sys.stdout.buffer
    err = sys.stderr.buffer
    asks = 0
    for raw in sys.stdin.buffer:
        words = raw.split()
        if not words:
            continue
        err.write(b"stderr: " + EVIL + b"\n")
        err.flush()
        if words[0] == b"arbiter":
            out.write(b"bot 1 x" + (EVIL if sys.argv[1:] == ["hello"] else b"") + b"\n")
        elif words[0] == b"ask":
            asks += 1
            if asks >= 4:
                sys.exit(3)
            if asks % 2:
                out.write(EVIL + b"\n")
            else:
                # a request without a legal list (a Da Bang play): garbage again
                items = words[words.index(b"legal") + 1:] if b"legal" in words else [EVIL]
                out.write(items[0] + b"\n")
        elif words[0] == b"end":
            return
        else:
            continue
        out.flush()

main()
