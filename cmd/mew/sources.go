package main

import (
	"os"
	"path/filepath"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/install"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/source/agy"
	"github.com/mew-dev/mew/source/codex"
	"github.com/mew-dev/mew/source/copilot"
	"github.com/mew-dev/mew/source/procscan"
	"github.com/mew-dev/mew/source/registry"
	"github.com/mew-dev/mew/source/tmux"
	"github.com/mew-dev/mew/store"
)

// monitorOptions is the composition root of the read side: this user's
// store ($MEW_HOME, or ~/.mew) and every local source, wired here and only
// here (watch, status, jump, answer, usage, snapshot, demo and the app all
// take it), so package monitor depends on the source interface alone.
// Remote hosts join later (Options.Remote, where a command wants them).
func monitorOptions() (monitor.Options, error) {
	st, err := store.Open(hookbin.Fold)
	if err != nil {
		return monitor.Options{}, err
	}
	return monitor.ForStore(st, localSources(st)), nil
}

// localSources are Claude Code's registry (source/registry), the tmux panes
// of the server Mew runs under (or the default one), every agent process
// (procscan), Codex's rollouts and processes, agy's transcripts of the
// sessions its hooks reported, Copilot CLI's session logs.
func localSources(st store.Store) []monitor.Source {
	var sources []monitor.Source
	if dir, err := registry.Dir(); err == nil { // no home: run on hooks alone
		sources = append(sources, registry.New(dir))
	}
	book := rules.Cached(rules.Dir(st.Home))
	sources = append(sources, tmuxSource(st, book))
	sources = append(sources, processScan(book)...)
	sources = append(sources, codex.Sources(st, codexAsksReview)...)
	if src, err := agy.New(st); err == nil { // no home: agy's hooks alone
		sources = append(sources, src)
	}
	if src := copilot.New(); src != nil {
		sources = append(sources, src)
	}
	return sources
}

// codexAsksReview: Codex asks to review Mew's hooks at its start (the
// doctor's trust check): a Codex with no session is on that dialog.
func codexAsksReview() bool {
	env, err := install.EnvFromOS()
	return err == nil && install.CodexAsksReview(env)
}

// tmuxSource reads the panes of the tmux server Mew runs under; a one-shot
// read keeps what it saw in $MEW_HOME/screens for the next one.
func tmuxSource(st store.Store, book func() (*rules.Book, []error)) monitor.Source {
	socket := tmux.SocketFromEnv()
	src := tmux.New(socket, book)
	src.Memory = tmux.MemoryFile(filepath.Join(st.Home, "screens"), socket)
	return src
}

// processScan is the process discovery source, unless $MEW_PROCSCAN is
// "off" (tests that must not see the machine's own agents).
func processScan(book func() (*rules.Book, []error)) []monitor.Source {
	if os.Getenv("MEW_PROCSCAN") == "off" {
		return nil
	}
	return []monitor.Source{procscan.New(book)}
}
