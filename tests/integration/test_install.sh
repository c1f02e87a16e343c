#!/usr/bin/env bash
# test_install.sh — the SDKs install: `meson install` into a DESTDIR, then a
# bot outside the tree builds against it with pkg-config only and plays.
#
# Asserts: arbiter-bot.pc and every header a bot includes are installed; a
# copy of bots-sdk/c/examples/random_bot.c in a directory of its own
# compiles and links with nothing but `pkg-config --cflags --libs
# arbiter-bot` (sysroot = the DESTDIR); each installed header compiles on
# its own; the bot links none of libmicrohttpd, libyaml, libpq, libzmq,
# libsodium, libmsgpack; it plays a match against the in-tree random bot
# with no penalty; the Python package is installed where python3 looks
# (with the default prefix) and imports from there, and `pip install` of
# bots-sdk/python works offline wherever pip is (its build backend is in the
# tree, standard library only: no setuptools, no wheel).
#
# usage: test_install.sh BUILD_DIR SOURCE_DIR ARBITER RANDOM_BOT PYTHON PREFIX
set -euo pipefail
BUILD=$1 SRC=$2 ARBITER=$3 RANDOM_BOT=$4 PYTHON=$5 PREFIX=$6 SANITIZE=${7:-none}
# A sanitizer build installs an instrumented library: a bot linking it needs
# the same -fsanitize (its runtime); the readelf check below still holds.
SANFLAGS=""
[ "$SANITIZE" != none ] && SANFLAGS="-fsanitize=$SANITIZE"

T=$(mktemp -d /tmp/arbiter-install.XXXXXX)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"                # as root, bots run as uids of their own: they must reach the bot
DEST=$T/dest
fails=0
check() {                     # check "what" 'command'
  if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; fails=$((fails + 1)); fi
}

meson install -C "$BUILD" --destdir "$DEST" --no-rebuild --quiet > "$T/install.log" 2>&1 \
  || { cat "$T/install.log"; echo "FAIL: meson install"; exit 1; }

# ---- the example bots: in bin/ under arbiter's names only ---------------
bindir=$DEST$PREFIX/bin
for b in random greedy heuristic dabang-random dabang-greedy; do
  check "example bot arbiter-example-$b installed" '[ -x "$bindir/arbiter-example-$b" ]'
done
for b in random_bot greedy_bot heuristic_bot dabang_random dabang_greedy; do
  check "no $b in bin/" '[ ! -e "$bindir/$b" ]'
done
check "arbiter-example-random plays" \
  '[ "$(printf "arbiter 1 doudizhu\n" | "$bindir/arbiter-example-random" | head -n 1 | cut -d" " -f1-2)" = "bot 1" ]'

# ---- the C library -----------------------------------------------------
pcs=$(find "$DEST" -name arbiter-bot.pc)
[ "$(printf '%s\n' "$pcs" | grep -c .)" = 1 ] || { echo "FAIL: one arbiter-bot.pc installed (found: $pcs)"; exit 1; }
echo "ok: arbiter-bot.pc installed (${pcs#"$DEST"})"
# Only the DESTDIR's .pc files, every path in them under the DESTDIR.
export PKG_CONFIG_LIBDIR
PKG_CONFIG_LIBDIR=$(dirname "$pcs")
export PKG_CONFIG_PATH=""
export PKG_CONFIG_SYSROOT_DIR=$DEST
CFLAGS=$(pkg-config --cflags arbiter-bot)
LIBS=$(pkg-config --libs arbiter-bot)
echo "pkg-config: $CFLAGS $LIBS"

inc=$(find "$DEST" -type d -name arbiter-bot -path '*/include/*')
for h in arbiter_bot.h ddz.h dabang.h game.h arb_rng.h arb_error.h arb_limits.h; do
  check "header $h installed" '[ -f "$inc/$h" ]'
done
for h in "$inc"/*.h; do
  check "$(basename "$h") compiles on its own" \
    'printf "#include \"%s\"\n" "$(basename "$h")" | cc -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -x c - $CFLAGS'
done
check "the flags name no library outside the bot library and libm" \
  '! pkg-config --libs --static arbiter-bot | grep -Eq "microhttpd|yaml|pq|zmq|sodium|msgpack"'

mkdir "$T/bot"
cp "$SRC/bots-sdk/c/examples/random_bot.c" "$T/bot/"
# shellcheck disable=SC2086  # the flags are words
( cd "$T/bot" && cc -std=gnu11 -O2 -Wall -Wextra -Werror $SANFLAGS random_bot.c $CFLAGS $LIBS -o random_bot ) \
  || { echo "FAIL: random_bot.c builds with pkg-config's flags only"; exit 1; }
echo "ok: random_bot.c builds outside the tree with pkg-config's flags only"
check "the bot links none of the daemons' libraries" \
  '! readelf -d "$T/bot/random_bot" | grep NEEDED | grep -Eq "microhttpd|yaml|libpq|zmq|sodium|msgpack"'

printf '5eed%.0s' $(seq 16) > "$T/secret"
echo >> "$T/secret"
chmod 600 "$T/secret"
if [ "$SANITIZE" != none ]; then
  # a sanitizer's runtime reserves terabytes of shadow memory, which the
  # referee's address-space limit refuses: the bot answers a handshake by
  # hand instead of playing a match
  check "the installed-SDK bot (instrumented) answers the handshake" \
    '[ "$(printf "arbiter 1 doudizhu\n" | "$T/bot/random_bot" | head -n 1 | cut -d" " -f1-2)" = "bot 1" ]'
elif "$ARBITER" match --deals 3 --seed 5 --secret-file "$T/secret" --sandbox none --json \
     --bot installed="$T/bot/random_bot" --bot r1="$RANDOM_BOT" --bot r2="$RANDOM_BOT" \
     > "$T/match.json" 2> "$T/match.err"; then
  check "the installed-SDK bot plays a match with no penalty" \
    '"$PYTHON" -c "
import json, sys
r = json.load(open(sys.argv[1]))
bad = [b for b in r[\"bots\"] if (b[\"penalties\"], b[\"strikes\"], b[\"forfeited\"]) != (0, 0, False)]
sys.exit(1 if bad or len(r[\"bots\"]) != 3 else 0)" "$T/match.json" || { cat "$T/match.err"; false; }'
else
  cat "$T/match.err"
  check "arbiter match with the installed-SDK bot" false
fi

# ---- the Python package ---------------------------------------------------
init=$(find "$DEST" -path '*/arbiter_bot/__init__.py')
check "the Python package is installed" '[ -n "$init" ]'
site=$(dirname "$(dirname "$init")")
check "it imports from the install location" \
  '(cd "$T" && PYTHONPATH="$site" "$PYTHON" -c "import arbiter_bot, sys; sys.exit(not arbiter_bot.__file__.startswith(sys.argv[1]))" "$site")'
if [ "$PREFIX" = /usr/local ]; then
  check "it lies where $PYTHON looks (${site#"$DEST"})" \
    '"$PYTHON" -c "import sys; sys.exit(sys.argv[1] not in sys.path)" "${site#"$DEST"}"'
fi
cp "$SRC/bots-sdk/python/greedy_bot.py" "$T/bot/"
check "an example bot outside the tree plays with the installed package" \
  '[ "$(printf "arbiter 1 doudizhu\nask bid time 1000 -1 30000 legal pass 1\n" | (cd "$T" && PYTHONPATH="$site" "$PYTHON" "$T/bot/greedy_bot.py") | head -n 1)" = "bot 1 py-greedy legal" ]'

if "$PYTHON" -m pip --version > /dev/null 2>&1; then
  cp -r "$SRC/bots-sdk/python" "$T/pysrc"     # pip builds in the source directory: a copy
  if "$PYTHON" -m pip install --quiet --no-build-isolation --no-index --no-deps --target "$T/pip" "$T/pysrc" \
       > "$T/pip.log" 2>&1; then
    check "pip install bots-sdk/python works offline and imports" \
      '(cd "$T" && PYTHONPATH="$T/pip" "$PYTHON" -c "import arbiter_bot.doudizhu, sys; sys.exit(not arbiter_bot.__file__.startswith(sys.argv[1]))" "$T/pip")'
  else
    cat "$T/pip.log"
    check "pip install bots-sdk/python" false
  fi
else
  echo "skip: pip install (no pip for $PYTHON)"
fi

echo "$fails failed"
[ "$fails" = 0 ]
