# cuecast server image: the match server (run with tsx, a runtime dependency) and the built web pages.
#   docker build -t cuecast .
#   docker run -p 3000:3000 -v cuecast-data:/data cuecast            # embedded mode, data in /data
#   docker run -p 3000:3000 -e REDIS_URL=redis://redis:6379 cuecast  # Redis mode (see docker-compose.yml)

# Node 20.19 or newer (package.json engines; Vite 8 needs it). Override with --build-arg NODE_IMAGE=…
ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: all dependencies, the Vite build of the pages, then drop the dev dependencies ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY shared ./shared
COPY web ./web
RUN NODE_ENV=production npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && npm cache clean --force

# ---- runtime: production node_modules, server, shared code, built pages; non-root ----
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --chown=root:root package.json tsconfig.json ./
COPY --chown=root:root shared ./shared
COPY --chown=root:root server ./server
COPY --from=build --chown=root:root /app/web/dist ./web/dist
# The embedded file store (used when REDIS_URL is unset) writes to /data, owned by the unprivileged user.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# /healthz answers 200 {ok: true} when the store (and Redis, in Redis mode) is ready, else 503.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (docker stop) shuts down gracefully: stop accepting, finish in-flight records, close Redis.
CMD ["node", "--import", "tsx", "server/main.ts"]
