# The two commands a new user needs are `make run` and `make test`.
GO ?= go
SHELL := /bin/bash

# Every build and test here uses the configuration the Dockerfile ships (no
# cgo, paths trimmed), also the builds tests run themselves: the packages
# compile once into Go's build cache instead of once per configuration (a
# second configuration doubled the cache, several GB, and CI's disk ran out),
# and the tests run the SQLite driver production runs (modernc's pure Go, not
# mattn's cgo one, whose C alone takes a minute to compile).
export CGO_ENABLED := 0
export GOFLAGS := -trimpath $(GOFLAGS)
PHASE := ./scripts/phase.sh

.PHONY: test lint gotest interop run bench-taxi bench-spark bench-clicks build

# test runs every check CI runs: formatting, vet, all Go tests (real prism
# pipelines, the embedded REST catalog, fake-gcs-server, loopback token
# endpoints, the Flink lane: both pipelines on Beam's portable Flink and
# Spark runners, whose job servers scripts/jobserver.sh assembles from Maven
# Central into .cache/, and Apache Iceberg's REST Compatibility Kit against
# `icebeam serve`, which scripts/rck.sh assembles the same way), then the
# interop suite against Spark and pyiceberg when Java and Python are present.
# INTEROP=require, JOBSERVER=require and BROWSER=require make a missing Java,
# Maven, Python or Chromium an error, as in CI (BROWSER=require installs
# Debian's chromium first, for the web UI's headless browser test).
test: lint gotest interop

# The packages of third_party/ forks that carry a test of their patch.
PATCHED := github.com/substrait-io/substrait-go/v8/extensions

gotest:
	@if [ "$(BROWSER)" = require ]; then $(PHASE) "headless Chromium for the web UI's test (Debian's package)" ./scripts/chromium.sh; fi
	@$(PHASE) "Go tests (prism pipelines, catalogs, the Iceberg compatibility kit, the Flink and Spark lanes; the first run compiles for minutes)" \
	  env JOBSERVER=$(JOBSERVER) BROWSER=$(BROWSER) $(GO) test -count=1 -timeout 80m ./... $(PATCHED)

interop:
	@if command -v java >/dev/null && command -v python3 >/dev/null; then $(PHASE) "interop suite (Spark, pyiceberg, Nessie)" ./interop/run.sh; \
	elif [ "$(INTEROP)" = require ]; then echo "interop: java and python3 are required"; exit 1; \
	else echo "interop: skipped (needs java and python3)"; fi

lint:
	@$(PHASE) "lint (gofmt, go vet)" bash -c 'out=$$(gofmt -l $$(git ls-files "*.go" 2>/dev/null || find . -name "*.go")); \
	  if [ -n "$$out" ]; then echo "gofmt would rewrite:"; echo "$$out"; exit 1; fi; $(GO) vet ./...'

# run is the README's first command: the taxi job on a generated sample,
# against the embedded local catalog in ./lakehouse, on prism.
run:
	@echo "make run: building the taxi pipeline into .cache/bin (the first build compiles Beam, Arrow and iceberg-go:"
	@echo "  a few minutes on a quiet machine, longer on a loaded one; progress below; later builds take seconds)"
	@mkdir -p .cache/bin && set -o pipefail && $(GO) build -v -o .cache/bin/taxi ./pipelines/taxi 2>&1 | \
	  awk '/^#|:[0-9]+:|^go: |rror:/ {print; next} {n++; if (n % 100 == 0) {printf "  %d packages compiled\n", n; fflush()}}'
	./.cache/bin/taxi $(ARGS)

build:
	$(GO) build -o bin/ ./pipelines/... ./cmd/...

# Benchmarks: whole runs side by side with a peer on the same input.
bench-taxi:
	./scripts/bench-taxi.sh
bench-spark:
	./interop/bench-spark.sh
bench-clicks:
	./scripts/bench-clicks.sh
