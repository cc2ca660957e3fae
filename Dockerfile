# syntax=docker/dockerfile:1
# runai-slack-bot: build with `docker build -t runai-slack-bot:0.1.0 .`
# Two stages: the build stage has compilers (better-sqlite3 builds a native addon when no
# prebuilt binary fits) and dev dependencies (TypeScript); the runtime stage has neither.
# Both stages use the same base so the addon's Node ABI and glibc match at run time.
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Dependencies first, so editing src/ does not reinstall them.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/bundle.mjs ./scripts/
COPY src ./src
# tsc checks the types; the image runs the bundle (scripts/bundle.mjs): only the code the bot
# reaches, so client-node's unused generated API groups are never loaded (about 50 MB less
# resident at start; bench/profiles/memory.json). The demo and the simulators (dist/demo,
# dist/sim) are for a clone, not for a cluster: `start` never loads them, the bundle leaves them
# out, and `ws`, which the simulated Slack needs, is a dev dependency. Left out, `demo` in the
# image says to run it from a clone.
RUN npm run build \
 && rm -rf dist/demo dist/sim \
 && npm run bundle \
 && rm -rf dist && mv bundle dist \
 && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    RUNAI_BOT_CONFIG=/etc/runai-slack-bot/config.yml
# A fixed numeric uid/gid (10001), matching the Kubernetes securityContext, so runAsNonRoot can
# be verified. The store volume is the only path the bot writes; everything else may be mounted
# read-only. The built-in config only moves the store onto that volume: mount your own
# config.yml over it (deploy/ does this from a ConfigMap).
RUN groupadd --system --gid 10001 runai-bot \
 && useradd --system --uid 10001 --gid 10001 --home-dir /nonexistent --no-create-home \
      --shell /usr/sbin/nologin runai-bot \
 && mkdir -p /var/lib/runai-slack-bot /etc/runai-slack-bot \
 && printf 'store:\n  path: /var/lib/runai-slack-bot/bot.db\n' > /etc/runai-slack-bot/config.yml \
 && chown 10001:10001 /var/lib/runai-slack-bot
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY manifest.yml ./
USER 10001:10001
VOLUME ["/var/lib/runai-slack-bot"]
# ops.port: health (/healthz, /readyz) and metrics (/metrics), in both modes.
EXPOSE 9090
# slack.port: Slack's requests (/slack/events), HTTP mode only.
EXPOSE 3000
# --max-semi-space-size=4 (MB): V8's young generation otherwise grows to 16 MB semi-spaces while
# a list is read and keeps them resident; at 4 the bot holds ~25 MB less at 10k workloads and is
# ready sooner at 100k, with the same event-loop delay (bench/profiles/, README "Benchmarks").
ENTRYPOINT ["node", "--max-semi-space-size=4", "dist/cli.js"]
CMD ["start", "--config", "/etc/runai-slack-bot/config.yml"]
