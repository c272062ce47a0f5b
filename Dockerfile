# syntax=docker/dockerfile:1
# Pairwise as a lab server: the browser host with per-user tokens (docs/lab-server.md).
#   docker build -t pairwise-lab .
#   docker run --rm -v pairwise-data:/data pairwise-lab serve tokens add alice --role editor --auth /data/tokens
#   docker run -d -p 127.0.0.1:8080:8080 -v pairwise-data:/data \
#     -e PAIRWISE_PUBLIC_URL=https://pairwise.lab.example pairwise-lab
# TLS is the reverse proxy's job: publish the port on loopback and put Caddy or nginx in front.

FROM node:20-bookworm-slim AS build
# Compilers only for a native module without a prebuilt binary for this platform.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The server needs no Electron binary (the desktop app is not built here), nor a browser.
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1 \
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY package.json package-lock.json ./
# `prepare` builds the app, which needs the sources: scripts run after they are copied.
RUN npm ci --ignore-scripts
COPY . .
RUN npm rebuild \
  && npx electron-vite build \
  && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/out ./out
COPY --from=build /app/resources/samples ./resources/samples
# The library, its backups, its log, pushed runs and the token file all live in /data.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
# /healthz needs no token and answers "ok", nothing more.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/app/out/main/cli.js"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080", "--auth", "/data/tokens", "--db", "/data/library.db"]
