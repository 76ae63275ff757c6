# Production image: build once, run the node server. (No container engine runs on the
# development machines here, so this file is documented, not exercised by the tests.)
FROM node:22-bookworm-slim AS build
WORKDIR /app
# The install applies patches/ (scripts/postinstall.mjs) and runs only the install scripts
# package.json's allowScripts approves (decision 095).
COPY package.json package-lock.json .npmrc ./
COPY patches ./patches
COPY scripts/postinstall.mjs ./scripts/
RUN npm install --no-audit --no-fund
COPY . .
ARG SITE_URL=https://www.example.com
ARG SITE_NAME="Patriot Investor"
RUN SITE_URL="$SITE_URL" SITE_NAME="$SITE_NAME" npm run build && npm prune --omit=dev --ignore-scripts

FROM node:22-bookworm-slim
# The address the pages were built for is the one the server runs with (a mismatch is logged).
ARG SITE_URL=https://www.example.com
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data SITE_URL=$SITE_URL
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/package.json /app/server.mjs ./
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# server.mjs runs the server with a 256 MB heap limit unless NODE_OPTIONS sets one (decision 137).
CMD ["node", "server.mjs"]
