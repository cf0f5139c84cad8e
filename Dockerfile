# cuecast server image: the compiled match server (dist/main.js, built with esbuild) and the built web pages.
#   docker build -t cuecast .
#   docker run -p 127.0.0.1:3000:3000 -v cuecast-data:/data cuecast            # embedded mode, data in /data
#   docker run -p 127.0.0.1:3000:3000 -e REDIS_URL=redis://redis:6379 cuecast  # Redis mode (see docker-compose.yml)
# No VOLUME: in Redis mode /data is unused, and embedded mode names its volume (-v cuecast-data:/data).

# Node 24 LTS, the version CI tests the unit tier with (package.json engines). Override with --build-arg NODE_IMAGE=…
ARG NODE_IMAGE=node:24.22.3-bookworm-slim

# ---- build: all dependencies, the Vite build of the pages, the server bundle; then drop the dev dependencies ----
FROM ${NODE_IMAGE} AS build
# Every RUN stops at its first failing command (a failed `npm ci` fails the build at that step).
SHELL ["/bin/sh", "-eu", "-c"]
# node-gyp's needs, for dependencies with native code (e.g. better-sqlite3), built from source here rather than
# fetched as prebuilt binaries; the headers come with the Node image (/usr/local/include/node), never downloaded.
# (Installed only when missing: CI's stand-in base image has them.)
RUN if ! command -v python3 >/dev/null || ! command -v make >/dev/null || ! command -v g++ >/dev/null; then \
      apt-get update -qq \
      && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 make g++ >/dev/null \
      && rm -rf /var/lib/apt/lists/*; \
    fi
# JOBS=max: node-gyp compiles better-sqlite3's sources side by side.
ENV npm_config_nodedir=/usr/local \
    npm_config_build_from_source=true \
    JOBS=max
WORKDIR /app
COPY package.json package-lock.json ./
# The Companion module is an npm workspace of the root (its package.json only: `npm ci` needs it; its dependencies
# are dev dependencies, bundled into its own build, so `npm prune --omit=dev` leaves none of them in the image).
COPY companion/package.json ./companion/
# `npm ls` fails when anything the lock file names is missing, so a broken install stops here.
RUN npm ci --no-audit --no-fund \
 && npm ls --omit=optional >/dev/null
COPY tsconfig.json ./
COPY shared ./shared
COPY server ./server
COPY web ./web
COPY overlay ./overlay
RUN NODE_ENV=production npm run build \
 && npm run build:server \
 && npm prune --omit=dev --no-audit --no-fund \
 && npm cache clean --force

# ---- runtime: production node_modules, the compiled server, the built pages; non-root ----
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/web/dist ./web/dist
COPY --from=build --chown=root:root /app/overlay/dist ./overlay/dist
# The embedded file store (used when REDIS_URL is unset) writes to /data, owned by the unprivileged user.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# /healthz answers 200 {ok: true} when the store (and Redis, in Redis mode) is ready, else 503.
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (docker stop): stop accepting, finish in-flight records, close the clients (connections that do not
# close within 3 s are destroyed), close Redis, exit 0 — well within the 10 s default stop grace period.
CMD ["node", "--enable-source-maps", "dist/main.js"]
