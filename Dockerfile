# Switchyard gateway image. Build: docker build -t switchyard .   Run: see docs/deploy.md and compose.yaml.
# Stage 1 installs production dependencies (better-sqlite3 compiles here, with the build tools);
# stage 2 carries only the app and its node_modules and runs as the unprivileged `node` user.

FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.mjs ./scripts/
COPY bin ./bin
COPY src ./src
COPY console ./console
# The bundle `npm start` runs and the console it serves (its prestart builds them again, in about a second).
RUN node scripts/build.mjs

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["npm", "start"]
