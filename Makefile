# Mew — see README.md. `make test` is what CI runs (.ci/run).
SHELL := bash
GO ?= go
BIN := bin
# mew-hook starts on every agent event: no cgo (a static binary starts
# faster), no symbol tables. mew keeps the platform's cgo default: on macOS
# the panel app (darwinkit) needs it.
GOFLAGS_BIN := -trimpath -ldflags='-s -w'

.PHONY: all build test bench run generate fmt vet race fuzz-short

all: build

build:
	mkdir -p $(BIN)
	CGO_ENABLED=0 $(GO) build $(GOFLAGS_BIN) -o $(BIN)/mew-hook ./cmd/mew-hook
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
	GOOS=darwin CGO_ENABLED=0 $(GO) vet ./...

race:
	CGO_ENABLED=1 $(GO) test -race ./store ./hookbin ./registry ./monitor

# Budgets are counts, not durations: Go 1.26's fuzz coordinator can fail a
# duration-bounded run with "context deadline exceeded" and no crasher
# (golang/go#75804, fixed in 1.27).
fuzz-short:
	$(GO) test ./hookbin -run '^$$' -fuzz FuzzHookPayload -fuzztime 20000x -fuzzminimizetime 50x

# Timing goals, reported as ratios and percentiles (never as timed tests):
# the hook vs a no-op Go binary, 2000 hooks at once under load (events
# lost, seconds to exit), registry write → `mew status --watch` line, and
# the board's tick rate.
bench:
	$(GO) test ./hookbin -run '^$$' -bench HookProcess -benchtime 400x
	$(GO) test ./hookbin -run '^$$' -bench HookBurst -benchtime 1x
	$(GO) test ./cmd/mew -run '^$$' -bench StatusWatchLatency -benchtime 200x
	$(GO) test ./app/board -run '^$$' -bench . -benchtime 4000x

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

# ---- macOS app: darwin type-check, bundle check, Mew.app (issue 8) ----
.PHONY: check-darwin bundle-check icon app

# Type-checks every package as it builds for darwin/arm64 and darwin/amd64,
# cgo faked; the app itself cannot be compiled here (see DEVELOPERS.md).
check-darwin:
	$(GO) run ./tools/checkdarwin
EXTRA_TESTS += check-darwin

# The checker checks packages and arches concurrently over shared syntax
# trees: race detector on it (the darwinkit test adds time, not coverage).
.PHONY: race-checkdarwin
race-checkdarwin:
	CGO_ENABLED=1 $(GO) test -race -skip 'TestRealDarwinkitCode|TestSelectorCheckCatches' ./tools/checkdarwin
EXTRA_TESTS += race-checkdarwin

# A dry run of `make app` on Linux: the same assembly, with Linux binaries,
# then the plist, layout and icon checks (the Mach-O check needs the Mac).
bundle-check:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(GO) build -o "$$tmp/mew" ./cmd/mew && \
	$(GO) build -o "$$tmp/mew-hook" ./cmd/mew-hook && \
	$(GO) run ./packaging/bundle-check -assemble -mew "$$tmp/mew" -hook "$$tmp/mew-hook" "$$tmp/Mew.app"
EXTRA_TESTS += bundle-check

# Redraws assets/Mew.icns from the board's sprites (commit the result).
icon:
	$(GO) run ./tools/mkicns -o assets/Mew.icns

# Mew.app for macOS 13+: mew built with cgo for AppKit and the hook without,
# both universal (arm64 + amd64), ad-hoc signed, zipped for the cask.
APP_OUT := $(BIN)/app
app:
	@if [ "$$(uname -s)" != Darwin ]; then \
		echo "make app needs macOS (cgo and the macOS SDK for AppKit); here, make check-darwin and make bundle-check check what they can" >&2; \
		exit 1; \
	fi
	rm -rf $(APP_OUT) && mkdir -p $(APP_OUT)/arm64 $(APP_OUT)/amd64
	for arch in arm64 amd64; do \
		CGO_ENABLED=1 GOOS=darwin GOARCH=$$arch MACOSX_DEPLOYMENT_TARGET=13.0 \
			$(GO) build $(GOFLAGS_BIN) -o $(APP_OUT)/$$arch/mew ./cmd/mew && \
		CGO_ENABLED=0 GOOS=darwin GOARCH=$$arch \
			$(GO) build $(GOFLAGS_BIN) -o $(APP_OUT)/$$arch/mew-hook ./cmd/mew-hook || exit 1; \
	done
	lipo -create -output $(APP_OUT)/mew $(APP_OUT)/arm64/mew $(APP_OUT)/amd64/mew
	lipo -create -output $(APP_OUT)/mew-hook $(APP_OUT)/arm64/mew-hook $(APP_OUT)/amd64/mew-hook
	$(GO) run ./packaging/bundle-check -assemble -mew $(APP_OUT)/mew -hook $(APP_OUT)/mew-hook $(APP_OUT)/Mew.app
	codesign --force --sign - $(APP_OUT)/Mew.app/Contents/MacOS/mew-hook
	codesign --force --deep --sign - $(APP_OUT)/Mew.app
	codesign --verify --deep --strict $(APP_OUT)/Mew.app
	$(GO) run ./packaging/bundle-check -macho arm64,amd64 $(APP_OUT)/Mew.app
	version=$$(plutil -extract CFBundleShortVersionString raw Info.plist) && \
	ditto -c -k --keepParent $(APP_OUT)/Mew.app $(APP_OUT)/Mew-$$version.zip && \
	shasum -a 256 $(APP_OUT)/Mew-$$version.zip

# ---- jump (issue 6) ----
# The jump runner serializes clicks across goroutines: race detector on it.
# (The real tmux jump test runs in `go test ./...`; .ci/run installs tmux.)
.PHONY: race-jump
race-jump:
	CGO_ENABLED=1 $(GO) test -race ./jump
EXTRA_TESTS += race-jump

# ---- install (issue 4) ----
# settings.json edits on random and generated files: install → uninstall is
# byte-exact, invalid files stay untouched. Temp files on tmpfs when there
# is one: each run writes a handful of files, and a disk is 5× slower here.
.PHONY: fuzz-install
fuzz-install:
	TMPDIR=$$(if [ -d /dev/shm ]; then echo /dev/shm; else echo $${TMPDIR:-/tmp}; fi) \
		$(GO) test ./install -run '^$$' -fuzz FuzzSettings -fuzztime 8000x -fuzzminimizetime 50x
EXTRA_TESTS += fuzz-install

# ---- board (issue 7) ----
# The terminal board runs a bubbletea program across goroutines: race
# detector on it. `make board-demo` redraws the README picture from
# `mew snapshot --demo` (TestSnapshotDemoIsDeterministic compares them);
# `make bench-board` prints frames per second and the unchanged-tick share.
.PHONY: race-board board-demo bench-board
race-board:
	CGO_ENABLED=1 $(GO) test -race ./app/board/...
board-demo: build
	$(BIN)/mew snapshot --demo --png assets/board-demo.png
bench-board:
	$(GO) test ./app/board -run '^$$' -bench . -benchtime 4000x
EXTRA_TESTS += race-board

# ---- end-to-end suite against the real Claude Code CLI (issue 5) ----
# `make claude-code` installs the pinned CLI from npm into a cache directory
# (idempotent; E2E_CLAUDE_VERSION=… for another release, e.g. to record
# fixtures); `make e2e` runs the scenarios in parallel tmux panes;
# `make test` runs them when tmux and npm are there (they skip, saying why,
# when the CLI could not be installed). The driver computes the same cache
# path (e2e/driver.CacheDir).
E2E_CLAUDE_VERSION ?= 2.1.328
E2E_CACHE ?= $(or $(MEW_E2E_CACHE),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/mew-e2e)
E2E_CLAUDE_DIR := $(E2E_CACHE)/claude-code-$(E2E_CLAUDE_VERSION)
.PHONY: claude-code e2e e2e-if-available race-e2e record-fixture
# --ignore-scripts: the native binary comes in the platform package (an
# optional dependency); the postinstall only copies it, and the driver runs
# it from the platform package directly.
claude-code:
	@if [ -f "$(E2E_CLAUDE_DIR)/.installed" ]; then \
		echo "Claude Code $(E2E_CLAUDE_VERSION) is installed in $(E2E_CLAUDE_DIR)"; \
	else \
		mkdir -p "$(E2E_CLAUDE_DIR)" && \
		npm install --prefix "$(E2E_CLAUDE_DIR)" --ignore-scripts --no-audit --no-fund --loglevel=error \
			"@anthropic-ai/claude-code@$(E2E_CLAUDE_VERSION)" && \
		touch "$(E2E_CLAUDE_DIR)/.installed"; \
	fi
# Four scenarios at a time: on two cores eight CLIs starting at once slow
# each other down (`mew status` p95 0.3-0.5 s instead of 20-30 ms), and the
# suite is no faster for it (~22 s either way).
e2e:
	MEW_E2E=1 MEW_E2E_CACHE="$(E2E_CACHE)" MEW_E2E_CODEX_VERSION="$(E2E_CODEX_VERSION)" $(GO) test ./e2e -count=1 -parallel 4 -timeout 5m -v
# The Codex scenarios again on a newer Codex release (issue 13: "0.171.0
# where cheap": a 5 s install and ~20 s of scenarios).
E2E_CODEX_NEXT ?= 0.171.0
.PHONY: e2e-codex-next
e2e-codex-next:
	$(MAKE) --no-print-directory codex-cli E2E_CODEX_VERSION=$(E2E_CODEX_NEXT)
	@echo "e2e: the Codex scenarios on Codex $(E2E_CODEX_NEXT)"
	MEW_E2E=1 MEW_E2E_CACHE="$(E2E_CACHE)" MEW_E2E_CODEX_VERSION="$(E2E_CODEX_NEXT)" $(GO) test ./e2e -count=1 -parallel 4 -timeout 5m -v -run 'Codex'
e2e-if-available:
	@if ! command -v tmux >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then \
		echo "e2e: skipped: the end-to-end suite needs tmux and npm (.ci/run installs them)"; \
	else \
		$(MAKE) --no-print-directory claude-code || echo "e2e: could not install Claude Code; the scenarios will skip" >&2; \
		$(MAKE) --no-print-directory codex-cli || echo "e2e: could not install the Codex CLI; its scenarios will skip" >&2; \
		$(MAKE) --no-print-directory opencode-cli || echo "e2e: could not install OpenCode; its scenarios will skip" >&2; \
		$(MAKE) --no-print-directory gemini-cli || echo "e2e: could not install Gemini CLI; its scenarios will skip" >&2; \
		$(MAKE) --no-print-directory e2e && \
		if $(MAKE) --no-print-directory codex-cli E2E_CODEX_VERSION=$(E2E_CODEX_NEXT); then \
			$(MAKE) --no-print-directory e2e-codex-next; \
		else \
			echo "e2e: could not install Codex $(E2E_CODEX_NEXT); its second run is skipped" >&2; \
		fi; \
	fi
EXTRA_TESTS += e2e-if-available
# Records a fixture folder (../shared/fixtures format) of the real CLI:
# make record-fixture OUT=../shared/fixtures/claude-code-2.2.0 E2E_CLAUDE_VERSION=2.2.0
record-fixture: claude-code
	@if [ -z "$(OUT)" ]; then echo "usage: make record-fixture OUT=DIR [E2E_CLAUDE_VERSION=$(E2E_CLAUDE_VERSION)]" >&2; exit 2; fi
	MEW_E2E_CACHE="$(E2E_CACHE)" $(GO) run ./tools/record-fixture -version $(E2E_CLAUDE_VERSION) -out "$(OUT)"
# The stand-in API, the driver's samplers and the recorder's hook are
# concurrent: race detector on their own tests.
race-e2e:
	CGO_ENABLED=1 $(GO) test -race ./e2e/fakeapi ./e2e/driver ./tools/record-fixture
EXTRA_TESTS += race-e2e

# ---- macOS app: the app's pure decisions (issue 8, items 1-5) ----
# Monitor updates reach the main thread through app.Latest and jumps run
# on the runner's goroutine: race detector on the package's tests.
.PHONY: race-app
race-app:
	CGO_ENABLED=1 $(GO) test -race ./app
EXTRA_TESTS += race-app

# ---- macOS review fixes, selector check, exit events (issue 16) ----
# check-selectors: every selector the app sends through objc.Call, objc.Sel
# and objc.NewClass exists on its class (darwinkit's generated bindings and
# tools/checkdarwin/selectors.manifest), with the right argument count and
# kinds (DEVELOPERS.md). One arch: selectors do not depend on it.
# race-exitwatch: the exit watcher's goroutines and the pids they report.
# bench-idle: `mew status --watch` CPU with 20 idle sessions, and the time
# from an agent's exit to its line (README "Measured").
.PHONY: check-selectors race-exitwatch bench-idle
check-selectors:
	$(GO) run ./tools/checkdarwin -selectors -arch arm64
EXTRA_TESTS += check-selectors
race-exitwatch:
	CGO_ENABLED=1 $(GO) test -race ./liveness/exitwatch
EXTRA_TESTS += race-exitwatch
bench-idle:
	$(GO) test ./cmd/mew -run '^$$' -bench StatusWatchIdle -benchtime 1x
	$(GO) test ./cmd/mew -run '^$$' -bench StatusWatchTmux -benchtime 1x
	$(GO) test ./liveness/exitwatch -run '^$$' -bench . -benchtime 3x

# ---- Codex (issue 13) ----
# `make codex-cli` installs the pinned Codex CLI (its native binary comes in
# the platform package, an optional dependency) into the e2e cache, like
# claude-code; the driver computes the same path (e2e/driver.CodexDir).
E2E_CODEX_VERSION ?= 0.169.0
E2E_CODEX_DIR := $(E2E_CACHE)/codex-cli-$(E2E_CODEX_VERSION)
.PHONY: codex-cli
codex-cli:
	@if [ -f "$(E2E_CODEX_DIR)/.installed" ]; then \
		echo "Codex $(E2E_CODEX_VERSION) is installed in $(E2E_CODEX_DIR)"; \
	else \
		mkdir -p "$(E2E_CODEX_DIR)" && \
		npm install --prefix "$(E2E_CODEX_DIR)" --ignore-scripts --no-audit --no-fund --loglevel=error \
			"@openai/codex@$(E2E_CODEX_VERSION)" && \
		touch "$(E2E_CODEX_DIR)/.installed"; \
	fi

# The Codex source follows rollouts and the process table across
# goroutines (fsnotify, its poll): race detector on it.
.PHONY: race-codex
race-codex:
	CGO_ENABLED=1 $(GO) test -race ./codex ./procscan ./e2e/fakeresponses
EXTRA_TESTS += race-codex

# ---- sessions on other machines over ssh (issue 18) ----
# The hub follows each remote on its own goroutine: race detector on it.
# The real-sshd tests (sshd on 127.0.0.1, a "remote" home) run in `go test
# ./...` and skip where sshd is missing; .ci/run installs openssh-server.
# `make bench-remote`: a change on the remote → this machine's
# `mew status --watch` line, median and p95 (part of `make bench`).
.PHONY: race-remote bench-remote
race-remote:
	CGO_ENABLED=1 $(GO) test -race -skip TestRealSSH ./remote
bench-remote:
	$(GO) test ./cmd/mew -run '^$$' -bench RemoteWatchLatency -benchtime 200x
bench: bench-remote
EXTRA_TESTS += race-remote

# ---- the screen signal: tmux panes, `mew run`, rules as data (issue 12) ----
# The tmux source, the `mew run` wrapper and the emulator work across
# goroutines: race detector on them. Fuzz: the rules loader and the
# emulator's feed (counts, not durations; see fuzz-short). The rules'
# scores on every recording print with `go test ./rules -run Score -v`.
# `make bench-screen`: `mew run`'s relay (latency and throughput, with and
# without the wrapper), the emulator's throughput, and `mew status
# --watch` with 500 sessions and 50 changes a second (CPU, change → line).
.PHONY: race-screen fuzz-screen bench-screen
race-screen:
	CGO_ENABLED=1 $(GO) test -race -short ./screen/... ./rules ./monitor
fuzz-screen:
	$(GO) test ./rules -run '^$$' -fuzz FuzzParse -fuzztime 5000x -fuzzminimizetime 50x
	$(GO) test ./screen -run '^$$' -fuzz FuzzFeed -fuzztime 5000x -fuzzminimizetime 50x
bench-screen:
	$(GO) test ./cmd/mew -run '^$$' -bench RunRelay -benchtime 1x
	$(GO) test ./screen -run '^$$' -bench Feed
	$(GO) test ./screen/tmux -run '^$$' -bench Sweep -benchtime 200x
	$(GO) test ./cmd/mew -run '^$$' -bench StatusWatchLoad -benchtime 1x
bench: bench-screen
EXTRA_TESTS += race-screen fuzz-screen

# ---- answering a waiting session (issue 15) ----
# race-answer: the answerer and the panel's answer runner.
# bench-answer: `mew answer` started → the dialog gone, median and p95
# over 20 answers to a stand-in dialog in real tmux (README "Measured";
# the real CLI's numbers are in `make e2e`'s summary).
.PHONY: race-answer bench-answer
race-answer:
	CGO_ENABLED=1 $(GO) test -race ./answer
EXTRA_TESTS += race-answer
bench-answer:
	$(GO) test ./cmd/mew -run '^$$' -bench AnswerLatency -benchtime 20x
bench: bench-answer

# ---- OpenCode, Gemini CLI, Amp, process discovery (issue 14) ----
# `make opencode-cli` and `make gemini-cli` install the pinned CLIs into the
# e2e cache like claude-code (the driver computes the same paths,
# e2e/driver.CLIDir). OpenCode's native binary comes in its platform
# package; OpenCode also installs @opencode-ai/plugin into its config
# folder, from npm, whenever a plugin is there: plugin-seed holds it once
# for every scenario. `make bench-procscan`: the process scan's CPU with
# 200 extra processes (README "Measured").
E2E_OPENCODE_VERSION ?= 1.18.33
E2E_GEMINI_VERSION ?= 0.61.0
E2E_OPENCODE_DIR := $(E2E_CACHE)/opencode-$(E2E_OPENCODE_VERSION)
E2E_GEMINI_DIR := $(E2E_CACHE)/gemini-cli-$(E2E_GEMINI_VERSION)
.PHONY: opencode-cli gemini-cli bench-procscan
opencode-cli:
	@if [ -f "$(E2E_OPENCODE_DIR)/.installed" ]; then \
		echo "OpenCode $(E2E_OPENCODE_VERSION) is installed in $(E2E_OPENCODE_DIR)"; \
	else \
		mkdir -p "$(E2E_OPENCODE_DIR)/plugin-seed" && \
		npm install --prefix "$(E2E_OPENCODE_DIR)" --ignore-scripts --no-audit --no-fund --loglevel=error \
			"opencode-ai@$(E2E_OPENCODE_VERSION)" && \
		npm install --prefix "$(E2E_OPENCODE_DIR)/plugin-seed" --ignore-scripts --no-audit --no-fund --loglevel=error \
			"@opencode-ai/plugin@$(E2E_OPENCODE_VERSION)" && \
		touch "$(E2E_OPENCODE_DIR)/.installed"; \
	fi
gemini-cli:
	@if [ -f "$(E2E_GEMINI_DIR)/.installed" ]; then \
		echo "Gemini CLI $(E2E_GEMINI_VERSION) is installed in $(E2E_GEMINI_DIR)"; \
	else \
		mkdir -p "$(E2E_GEMINI_DIR)" && \
		npm install --prefix "$(E2E_GEMINI_DIR)" --no-audit --no-fund --loglevel=error \
			"@google/gemini-cli@$(E2E_GEMINI_VERSION)" && \
		touch "$(E2E_GEMINI_DIR)/.installed"; \
	fi
bench-procscan:
	$(GO) test ./procscan -run '^$$' -bench Poll -benchtime 300x -v
bench: bench-procscan
# The stand-in model APIs serve streams on many goroutines: race detector
# (procscan runs in race-codex, the tmux memory in race-screen).
.PHONY: race-agents
race-agents:
	CGO_ENABLED=1 $(GO) test -race ./e2e/fakellm
EXTRA_TESTS += race-agents
