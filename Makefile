# Mew — see README.md. `make test` is what CI runs (.ci/run).
SHELL := bash
GO ?= go
BIN := bin
# mew-hook starts on every agent event: no cgo (a static binary starts
# faster), no symbol tables.
GOFLAGS_BIN := -trimpath -ldflags='-s -w'
export CGO_ENABLED ?= 0

.PHONY: all build test bench run generate fmt vet race fuzz-short

all: build

build:
	mkdir -p $(BIN)
	$(GO) build $(GOFLAGS_BIN) -o $(BIN)/mew-hook ./cmd/mew-hook
	$(GO) build $(GOFLAGS_BIN) -o $(BIN)/mew ./cmd/mew

# The whole suite: formatting, vet, unit and replay tests, the race detector
# on the concurrent packages, a short fuzz run, and the targets other parts
# add below (darwin type-check, bundle check, end-to-end).
test: fmt vet
	$(GO) test ./...
	$(MAKE) race fuzz-short
	$(MAKE) test-extra

.SECONDEXPANSION:

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	GOOS=darwin $(GO) vet $$($(GO) list ./... | grep -v /app$$)

race:
	CGO_ENABLED=1 $(GO) test -race ./store ./hookbin ./registry ./monitor

fuzz-short:
	$(GO) test ./hookbin -run '^$$' -fuzz FuzzHookPayload -fuzztime 10s

bench:
	$(GO) test ./hookbin -run '^$$' -bench HookProcess -benchtime 400x

run: build
	$(BIN)/mew demo

# Regenerates the easyjson code of the hook's hot types (see reducer/payload.go).
generate:
	./tools/gen-json.sh

# ---- targets added by later parts ----
# Each block adds its target to EXTRA_TESTS (`EXTRA_TESTS += name`) and
# keeps to its own lines, so parts can be added without touching others.
EXTRA_TESTS :=

.PHONY: test-extra
test-extra: $$(EXTRA_TESTS)
