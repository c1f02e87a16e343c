# ops/deps.sh — sourced by run.sh and test.sh: install with apt-get (as
# root) whatever building and running arbiter needs and this machine lacks:
# the toolchain, the libraries (libzstd and libarchive: the record's
# compression and `arbiter export`'s archives among them; libcurl and
# jansson: arbiter join and arbiter remote), PostgreSQL (a private cluster is started
# under a state directory), bubblewrap (the bot sandbox), python3 (the
# Python SDK and example bots), libmicrohttpd (the daemons' metrics
# endpoint), iproute2 (network namespaces in the distributed tests), and
# for the browser tests where Chromium is, a Chinese font and npm.
need=()
command -v meson >/dev/null || need+=(meson)
command -v ninja >/dev/null || need+=(ninja-build)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v cc >/dev/null || need+=(gcc)
pkg-config --exists msgpack libsodium libzmq libpq yaml-0.1 libmicrohttpd libzstd libarchive 2>/dev/null \
  || need+=(libmsgpack-dev libsodium-dev libzmq3-dev libpq-dev libyaml-dev libmicrohttpd-dev libzstd-dev libarchive-dev)
# arbiter join / remote (the participant API's client, in the arbiter binary
# only): libcurl with GnuTLS, as the server's TLS, and jansson for its answers
pkg-config --exists libcurl jansson 2>/dev/null || need+=(libcurl4-gnutls-dev libjansson-dev)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v psql >/dev/null || need+=(postgresql-client)
command -v bwrap >/dev/null || need+=(bubblewrap)
command -v python3 >/dev/null || need+=(python3)
# venvs: the Python SDK's offline install and a bot whose packages are in a
# venv inside its bundle are tested in one (tests skip the case without it)
python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
command -v openssl >/dev/null || need+=(openssl)   # the TLS tests make a self-signed certificate
command -v curl >/dev/null || need+=(curl)   # the operations test asks /healthz as the doc does
command -v ip >/dev/null || need+=(iproute2)   # network namespaces for the link-cut test
# Where Chromium is (the browser tests skip without it): a font with the
# games' and roles' Chinese names (else boxes in the screenshots) and npm
# (axe-core for the accessibility check, tests/web/axe_install.sh).
if command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then
  { command -v fc-list >/dev/null && fc-list :lang=zh | grep -q .; } || need+=(fontconfig fonts-wqy-microhei)
  command -v npm >/dev/null || need+=(npm)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]} (needs root: apt-get)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# As root, bots run under uids of their own (referee/seat.h): they must be
# able to reach the bot programs inside this checkout. A checkout under a
# 0700 directory (/root, a mktemp -d) is opened for traversal only (o+x: no
# listing, no reading), and we say so.
if [ "$(id -u)" = 0 ]; then
  dir=$(pwd -P)
  while [ "$dir" != / ]; do
    if [ -z "$(find "$dir" -maxdepth 0 -perm -o+x 2>/dev/null)" ]; then
      echo "note: bots run as their own uid; opening $dir for traversal (chmod o+x)"
      chmod o+x "$dir"
    fi
    dir=$(dirname "$dir")
  done
fi
