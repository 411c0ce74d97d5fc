# Amora's image: one image for every role (web, worker, the migration job). docs/deploy.md explains running it.

# Every dependency, to build with.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# The browser bundle, the page build and the server (build/).
FROM deps AS build
COPY . .
RUN npm run build

# Only what runs in production.
FROM node:20-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
# Read at run time: the migrations (npm run db:migrate, node build/server/migrate.js), translations, static pages
# and public files.
COPY package.json ./
COPY server/db/migrations ./server/db/migrations
COPY locales ./locales
COPY content ./content
COPY public ./public
# The node user (uid 1000) owns only the data directory (the dev outboxes when no SMTP or SMS gateway is set).
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "build/server/main.js"]
