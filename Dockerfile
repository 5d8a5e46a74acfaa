# syntax=docker/dockerfile:1
# The RingTrail collector for production: several of these behind a proxy, on a MongoDB replica
# set (MONGODB_URI, required). The embedded database is for trying RingTrail out: it is not in the
# image. Configuration is by environment only (README, "Configuration").

FROM node:20.20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY collector/package.json collector/
COPY tracker/package.json tracker/
# --ignore-scripts: the postinstall builds the embedded database, which the image does not carry.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY shared shared
COPY collector collector
COPY tracker tracker
COPY tsconfig.json ./
# tracker.js and the back end's pages, then the production dependencies only.
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:20.20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=build --chown=1000:1000 /app /app
# The image's `node` user, by number so that the host resolves it too.
USER 1000:1000
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# tsx runs the TypeScript sources as they are tested; no build step of the server to drift from them.
# The supervisor starts the collector again after a crash, and exits 1 after 5 within 5 minutes (restart policy).
CMD ["node", "--import", "tsx", "collector/src/supervisor.ts"]
