# web-reader serve --http, for compose.yaml (docs/scale-out.md "Run it"). Two stages: the build needs TypeScript
# (a devDependency), the image keeps only the runtime dependencies and dist/.
# Not in the image: Chromium. RENDER_JS=auto finds no browser and says so (BROWSER_MISSING); add Debian's
# `chromium` package to the second stage to render pages that need JavaScript.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` builds, and the sources are not here yet. No dependency has an install script.
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:20-slim
ENV NODE_ENV=production \
    WEB_READER_HOST=0.0.0.0 \
    WEB_READER_PORT=3000
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
# node:20-slim has no curl: the health check is Node's own fetch. /healthz needs no token.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) is a graceful shutdown: running calls finish within the grace period (docs/http.md).
CMD ["node", "dist/cli/main.js", "serve", "--http"]
