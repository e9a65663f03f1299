package e2e

// OpenCode 1.18 with the npm registry unreachable: with only Mew's plugin
// in its folder after `mew install`, it must make no registry connection
// and draw as soon as with no plugin at all. The registry is a listener on
// 127.0.0.1 that counts connections and closes each at once
// (npm_config_registry, which OpenCode's built-in npm reads); a run with
// Mew's plugin and none of install's files shows the listener is the
// registry OpenCode would use.

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
)

// refusingRegistry accepts connections and closes them: every attempt is
// counted, none gets an answer.
type refusingRegistry struct {
	ln    net.Listener
	conns atomic.Int64
	first chan struct{}
}

func startRefusingRegistry(t *testing.T) *refusingRegistry {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &refusingRegistry{ln: ln, first: make(chan struct{})}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if r.conns.Add(1) == 1 {
				close(r.first)
			}
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return r
}

func (r *refusingRegistry) url() string { return "http://" + r.ln.Addr().String() + "/" }

// openCodeOffline starts OpenCode with the registry at reg: with Mew's
// plugin (install) or no plugin at all; keepOffline false removes what
// `mew install` wrote for the registry check.
func openCodeOffline(t *testing.T, setup *binaries, reg *refusingRegistry, install, keepOffline bool) (*driver.Run, error) {
	api, err := fakellm.Start(fakellm.DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	dir := t.TempDir()
	if d := os.Getenv("W24_KEEP"); d != "" {
		dir, _ = os.MkdirTemp(d, "oc")
	}
	r, err := driver.Launch(driver.Options{
		Args:  openCodeDebugArgs(),
		Agent: driver.AgentOpenCode, Program: setup.program, APIURL: api.OpenAIURL, Dir: dir, Mew: setup.mew, Install: install,
		Setup: func(r *driver.Run) error {
			cfg := filepath.Join(r.Home, ".config", "opencode")
			// Only Mew's plugin, or none: not the driver's observer.
			if err := os.Remove(filepath.Join(cfg, "plugins", "driver-observer.js")); err != nil {
				return err
			}
			if !keepOffline {
				os.RemoveAll(filepath.Join(cfg, "node_modules"))
				os.Remove(filepath.Join(cfg, "package-lock.json"))
			}
			r.Env = append(r.Env, "npm_config_registry="+reg.url(), "NPM_CONFIG_REGISTRY="+reg.url())
			return nil
		},
	})
	if err == nil {
		t.Cleanup(r.Close)
	}
	return r, err
}

func TestOpenCodeStartsOfflineWithMewsPlugin(t *testing.T) {
	setup := needCLI(t, openCodeCLI)
	// Not parallel: the two starts are compared, on the same machine load.
	var took [2]time.Duration
	var regs [2]*refusingRegistry
	for i, withPlugin := range []bool{false, true} {
		reg := startRefusingRegistry(t)
		regs[i] = reg
		r, err := openCodeOffline(t, setup, reg, withPlugin, true)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.WaitReady(2 * ready); err != nil {
			t.Fatalf("plugin %v: %v\n%s", withPlugin, err, driver.Excerpt(r.Screen(), 12))
		}
		took[i] = time.Since(r.Started)
		r.Close()
	}
	t.Logf("first screen with the registry unreachable: no plugin %v, Mew's plugin %v (difference %v; goal ≤ 1 s)",
		took[0].Round(10*time.Millisecond), took[1].Round(10*time.Millisecond), (took[1] - took[0]).Round(10*time.Millisecond))
	// Asserted is the cause, not the time: OpenCode asked the registry
	// nothing (it waits for that install only when a plugin is there).
	t.Logf("registry connections: no plugin %d (OpenCode's own install in the background), Mew's plugin %d", regs[0].conns.Load(), regs[1].conns.Load())
	if n := regs[1].conns.Load(); n != 0 {
		t.Fatalf("OpenCode made %d registry connections with Mew's plugin; want none after `mew install`", n)
	}
	resultsMu.Lock()
	results = append(results, result{test: t.Name(), check: "first screen, registry unreachable (goal: within 1 s of no plugin)", verdict: "",
		note: fmt.Sprintf("no plugin %d ms, Mew's plugin %d ms, 0 registry connections", took[0].Milliseconds(), took[1].Milliseconds())})
	resultsMu.Unlock()
}

// Without install's files OpenCode goes to the registry (and waits for
// it): the listener above is the registry it uses, so the test above can
// fail.
func TestOpenCodeWithoutInstallFilesAsksTheRegistry(t *testing.T) {
	setup := needCLI(t, openCodeCLI)
	reg := startRefusingRegistry(t)
	if _, err := openCodeOffline(t, setup, reg, true, false); err != nil {
		t.Fatal(err)
	}
	select {
	case <-reg.first:
	case <-time.After(2 * ready):
		t.Fatal("OpenCode never connected to npm_config_registry: the offline test proves nothing")
	}
}

// openCodeDebugArgs: W24_KEEP keeps the runs' folders, with OpenCode's
// debug log.
func openCodeDebugArgs() []string {
	if os.Getenv("W24_KEEP") == "" {
		return nil
	}
	return []string{"--log-level", "DEBUG", "."}
}
