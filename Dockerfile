# The image of `rcsctl controller` (docs/controller.md, "Deploying").
#
#   docker build -t rcsctl .
#   docker run -e RCSCTL_BASE_URL=... -e RCSCTL_TOKEN=... -e RCSCTL_WEBHOOK_TOKEN=... \
#     -v "$PWD/brands:/manifests:ro" -p 9464:9464 rcsctl
#
# Two stages: the first installs every dependency and compiles TypeScript; the
# second holds only what `npm pack` would ship (bin, dist, schemas) and the
# production dependencies, and runs as the unprivileged `node` user (uid 1000).
# Checked offline by test/deploy/dockerfile.test.ts.

FROM node:20-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# No install scripts: `prepare` would build before the sources are here, and
# the browser the docs tests use is not needed to build.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY schemas ./schemas
COPY src ./src
COPY bench ./bench
COPY bin ./bin
RUN npm run build && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# node:20-slim, not distroless: the StatefulSet in examples/controller/ derives
# its shard from the pod name with /bin/sh, which distroless does not have.
FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/bin ./bin
COPY --from=build /src/schemas ./schemas
COPY --from=build /src/src/contract/schemas ./src/contract/schemas
RUN ln -s /app/bin/rcsctl.js /usr/local/bin/rcsctl
# The node image's own unprivileged user, by number so that Kubernetes'
# runAsNonRoot can check it.
USER 1000:1000
# The controller's default --listen port; the CMD listens on every interface
# because probes and the service's webhook come from outside the container.
EXPOSE 9464
# No HEALTHCHECK: Kubernetes ignores it (the examples' liveness and readiness
# probes call /healthz and /readyz), systemd has its own restart policy, and
# the image cannot know the --listen a deployment passes.
ENTRYPOINT ["rcsctl", "controller"]
CMD ["--listen", "0.0.0.0:9464", "/manifests"]
