package install

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// piHost is a stand-in for pi 0.73's extension host: it loads the
// extension's default export with pi.on, then for every line on stdin
// calls the handlers of one event the way pi does (awaited, one after the
// other, with a ctx carrying cwd and the session manager), and says "ok"
// on stdout. {"exit": true} is pi's exit: process.exit once the handlers
// of session_shutdown returned.
const piHost = `
import { pathToFileURL } from "node:url"
import { createInterface } from "node:readline"
const factory = (await import(pathToFileURL(process.argv[1]).href)).default
const handlers = {}
factory({ on: (name, fn) => { (handlers[name] ??= []).push(fn) } })
const ctx = { cwd: "/home/me/proj", sessionManager: { getSessionId: () => "0199a1b2-pi-session" } }
for await (const line of createInterface({ input: process.stdin })) {
  const ev = JSON.parse(line)
  if (ev.exit) {
    for (const fn of handlers.session_shutdown ?? []) await fn({ type: "session_shutdown", reason: "quit" }, ctx)
    process.exit(0)
  }
  for (const fn of handlers[ev.type] ?? []) {
    const r = await fn(ev, ctx)
    if (r !== undefined) throw new Error(ev.type + ": the extension returned " + JSON.stringify(r) + ": it must never change what pi does")
  }
  process.stdout.write("ok\n")
}
`

// The extension, run by node in a stand-in of pi's host with the events
// pi 0.73.1 sends (../shared/fixtures/census/pi, run-pi3: a turn with a
// tool call, then HTTP 500 on every attempt: three retries, each its own
// agent_end → agent_start, then the failure) and the real mew-hook: the
// session is working through the retries, failed after the last one, and
// exited by pi's exit even though the process ends right after it.
func TestPiExtensionForwardsRunsRetriesAndExit(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	env := pluginEnv(t)
	hook, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Install(Options{Env: env, Agent: Pi, HookSource: hook}); err != nil {
		t.Fatal(err)
	}
	if got, want := Pi.Path(env), filepath.Join(env.Home, ".pi", "agent", "extensions", "mew.ts"); got != want {
		t.Fatalf("pi's extension at %s, want %s", got, want)
	}
	// pi loads .ts through its own loader; this one is plain JavaScript.
	mjs := filepath.Join(t.TempDir(), "mew.mjs")
	os.WriteFile(mjs, readFile(t, Pi.Path(env)), 0o600)

	cmd := exec.Command(node, "--input-type=module", "-e", piHost, mjs)
	cmd.Env = append(os.Environ(), "HOME="+env.Home)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
		if stderr.Len() > 0 {
			t.Errorf("node printed on stderr:\n%s", stderr.String())
		}
	}()
	out := bufio.NewScanner(outPipe)
	play := func(events ...string) {
		t.Helper()
		for _, e := range events {
			io.WriteString(in, e+"\n")
			if !out.Scan() || out.Text() != "ok" {
				t.Fatalf("host after %s: %q %v; stderr:\n%s", e, out.Text(), out.Err(), stderr.String())
			}
		}
	}
	st := store.Store{Home: env.MewHome, Fold: hookbin.Fold}
	const id = "0199a1b2-pi-session"
	// await waits for the events played so far to be folded (n in all).
	await := func(what string, n int, want session.State) *session.HookState {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			rec, err := st.Load(id)
			if err == nil && rec.Hook != nil && rec.Hook.EventCount >= n {
				if rec.Hook.EventCount > n || rec.Hook.State != want {
					t.Fatalf("%s: %d events, %s; want %d, %s", what, rec.Hook.EventCount, rec.Hook.State, n, want)
				}
				return rec.Hook
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %+v (%v); want %d events folded", what, rec.Hook, err, n)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	reply := func(stop, msg string) string {
		b, _ := json.Marshal(map[string]any{"role": "assistant", "stopReason": stop, "errorMessage": msg})
		return string(b)
	}
	end := func(stop, msg string) string {
		return `{"type":"agent_end","messages":[{"role":"user","content":"x"},` + reply(stop, msg) + `]}`
	}

	play(`{"type":"session_start","reason":"startup"}`)
	h := await("session_start", 1, session.Idle)
	if h.Cwd != "/home/me/proj" {
		t.Errorf("cwd %q, want pi's ctx.cwd", h.Cwd)
	}
	rec, _ := st.Load(id)
	if rec.Agent != session.AgentPi || rec.Process == nil {
		t.Fatalf("record %+v: want pi's, with the process", rec)
	}

	play(`{"type":"input"}`, `{"type":"before_agent_start"}`, `{"type":"agent_start"}`, `{"type":"turn_start","turnIndex":0}`,
		`{"type":"message_end","message":`+reply("toolUse", "")+`}`,
		`{"type":"tool_execution_start","toolCallId":"call_1","toolName":"bash","args":{"command":"rm -rf x"}}`)
	await("the tool call", 3, session.Working)
	play(`{"type":"tool_execution_end","toolCallId":"call_1","toolName":"bash","isError":false}`,
		`{"type":"message_end","message":`+reply("stop", "")+`}`, end("stop", ""))
	await("the run's end", 5, session.Done)

	// HTTP 500 on every attempt: pi retries 3 times (2, 4, 8 s apart).
	const e500 = "500 fake upstream error 500"
	play(`{"type":"before_agent_start"}`, `{"type":"agent_start"}`, `{"type":"message_end","message":`+reply("error", e500)+`}`, end("error", e500))
	await("the first failed attempt", 7, session.Working)
	for i := 0; i < 2; i++ {
		play(`{"type":"agent_start"}`, `{"type":"message_end","message":`+reply("error", e500)+`}`, end("error", e500))
		await("a retried attempt", 9+2*i, session.Working)
	}
	play(`{"type":"agent_start"}`, `{"type":"message_end","message":`+reply("error", e500)+`}`, end("error", e500))
	await("the last attempt", 13, session.Failed)

	// A 400 is not retried: failed at once; a new prompt starts counting
	// again (the first 500 after it is retried).
	play(`{"type":"before_agent_start"}`, `{"type":"agent_start"}`, end("error", "400 scripted bad request"))
	await("a 400", 15, session.Failed)
	play(`{"type":"before_agent_start"}`, `{"type":"agent_start"}`, end("error", e500))
	await("a 500 after a new prompt", 17, session.Working)
	play(`{"type":"agent_start"}`, end("aborted", ""))
	await("Escape", 19, session.Idle)

	io.WriteString(in, `{"exit":true}`+"\n")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the host's exit: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("pi's exit waited on the extension for more than 5 s")
	}
	await("the exit", 20, session.Exited)
}

// Retries off in pi's settings (retry.enabled false): the first 500 is
// the failure; and a retry pi should have started that never came
// (Escape on its countdown) is reported failed, not left working.
func TestPiExtensionRetrySettings(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	env := pluginEnv(t)
	mjs := filepath.Join(t.TempDir(), "mew.mjs")
	src, err := Pi.Plugin.Source(Pi, env)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(mjs, src, 0o600)
	// A stand-in hook: each payload it gets, one line in a file.
	log := filepath.Join(t.TempDir(), "forwarded.jsonl")
	fake := filepath.Join(env.MewHome, "bin", "mew-hook")
	os.MkdirAll(filepath.Dir(fake), 0o755)
	os.WriteFile(fake, []byte("#!/bin/sh\n{ cat; echo; } >> '"+log+"'\n"), 0o755)
	agentDir := filepath.Join(env.Home, ".pi", "agent")
	os.MkdirAll(agentDir, 0o755)

	run := func(settings string, events ...string) []string {
		t.Helper()
		os.Remove(log)
		os.WriteFile(filepath.Join(agentDir, "settings.json"), []byte(settings), 0o600)
		script := strings.Replace(piHost, "for await", "setInterval(() => {}, 1000)\nfor await", 1)
		cmd := exec.Command(node, "--input-type=module", "-e", script, mjs)
		cmd.Env = append(os.Environ(), "HOME="+env.Home)
		cmd.Stdin = strings.NewReader(strings.Join(events, "\n") + "\n")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { cmd.Process.Kill(); cmd.Wait() }()
		var lines []string
		for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			b, _ := os.ReadFile(log)
			lines = strings.Fields(string(b))
			if len(lines) >= len(events) {
				break
			}
		}
		return lines
	}
	statusOf := func(line string) string {
		var e struct {
			Type   string `json:"type"`
			Status string `json:"status"`
		}
		json.Unmarshal([]byte(line), &e)
		return e.Type + "." + e.Status
	}
	e500 := `{"type":"agent_end","messages":[{"role":"assistant","stopReason":"error","errorMessage":"500 upstream"}]}`

	got := run(`{"retry":{"enabled":false}}`, `{"type":"agent_start"}`, e500)
	if len(got) != 2 || statusOf(got[1]) != "agent_end.error" {
		t.Errorf("retries off: forwarded %q, want agent_start then the failure", got)
	}
	// Retries on, 100 ms base delay: no agent_start follows the retry.
	got = run(`{"retry":{"baseDelayMs":100}}`, `{"type":"agent_start"}`, e500, `{"type":"noop"}`)
	if len(got) != 3 || statusOf(got[1]) != "agent_end.retry" || statusOf(got[2]) != "agent_end.error" {
		t.Errorf("a retry that never started: forwarded %q, want agent_start, the retry, then the failure", got)
	}
}

// piUIHost is piHost with pi's interactive ctx.ui: one object shared by
// every extension (pi binds its runner to one), whose dialogs answer when
// told. {"dialog": method} calls ctx.ui[method] as another extension
// does (the permission gate: ctx.ui.select in tool_call) and checks the
// call hands back pi's own promise; {"answer": value} answers it and
// checks the caller gets that value; {"reload": true} loads the extension
// again (pi's /reload: a new module, the same ui object). It prints "ok"
// after each line.
const piUIHost = `
import { pathToFileURL } from "node:url"
import { createInterface } from "node:readline"
const handlers = {}
let loads = 0
async function load() {
  handlers.length = 0
  for (const k of Object.keys(handlers)) delete handlers[k]
  const factory = (await import(pathToFileURL(process.argv[1]).href + "?load=" + ++loads)).default
  factory({ on: (name, fn) => { (handlers[name] ??= []).push(fn) } })
}
await load()
let answer, shown
const dialog = () => new Promise((resolve) => { answer = resolve })
const ui = { notify: () => {} }
for (const m of ["select", "confirm", "input", "editor", "custom"]) ui[m] = () => (shown = dialog())
const ctx = { cwd: "/home/me/proj", sessionManager: { getSessionId: () => "0199a1b2-pi-session" }, hasUI: true, get ui() { return ui } }
for await (const line of createInterface({ input: process.stdin })) {
  const ev = JSON.parse(line)
  if (ev.reload) {
    await load()
  } else if (ev.dialog) {
    const p = ctx.ui[ev.dialog]("⚠️ Dangerous command:\n\n  rm -rf x\n\nAllow?", ["Yes", "No"])
    if (p !== shown) throw new Error(ev.dialog + ": the caller did not get pi's own promise")
    p.then((v) => { globalThis.got = v })
  } else if ("answer" in ev) {
    answer(ev.answer)
    await new Promise((r) => setTimeout(r, 10))
    if (globalThis.got !== ev.answer) throw new Error("the caller got " + globalThis.got + ", want " + ev.answer)
  } else {
    for (const fn of handlers[ev.type] ?? []) {
      const r = await fn(ev, ctx)
      if (r !== undefined) throw new Error(ev.type + ": the extension returned " + JSON.stringify(r))
    }
  }
  process.stdout.write("ok\n")
}
`

// pi has no event for another extension's dialog: Mew's extension wraps
// the shared ctx.ui's dialog methods. A dialog while a tool call runs is
// forwarded as that call's dialog_shown, and dialog_closed once answered;
// the caller gets pi's own promise and answer; a dialog with no call
// running, or drawn by custom (any component), is not forwarded; after a
// reload each dialog is forwarded once.
func TestPiExtensionReportsDialogs(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	env := pluginEnv(t)
	mjs := filepath.Join(t.TempDir(), "mew.mjs")
	src, err := Pi.Plugin.Source(Pi, env)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(mjs, src, 0o600)
	log := filepath.Join(t.TempDir(), "forwarded.jsonl")
	fake := filepath.Join(env.MewHome, "bin", "mew-hook")
	os.MkdirAll(filepath.Dir(fake), 0o755)
	os.WriteFile(fake, []byte("#!/bin/sh\n{ cat; echo; } >> '"+log+"'\n"), 0o755)

	cmd := exec.Command(node, "--input-type=module", "-e", piUIHost, mjs)
	cmd.Env = append(os.Environ(), "HOME="+env.Home)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	out := bufio.NewScanner(outPipe)
	type fwd struct {
		Type       string `json:"type"`
		Properties struct {
			ID         string `json:"id"`
			Permission string `json:"permission"`
		} `json:"properties"`
	}
	// play sends lines and returns what was forwarded once n events are.
	play := func(n int, lines ...string) []fwd {
		t.Helper()
		for _, l := range lines {
			io.WriteString(in, l+"\n")
			if !out.Scan() || out.Text() != "ok" {
				t.Fatalf("host after %s: %q %v; stderr:\n%s", l, out.Text(), out.Err(), stderr.String())
			}
		}
		var got []fwd
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			b, _ := os.ReadFile(log)
			got = got[:0]
			for _, l := range strings.Fields(string(b)) {
				var f fwd
				json.Unmarshal([]byte(l), &f)
				got = append(got, f)
			}
			if len(got) >= n {
				break
			}
		}
		return got
	}
	types := func(fs []fwd) []string {
		var s []string
		for _, f := range fs {
			s = append(s, f.Type)
		}
		return s
	}
	tool := `{"type":"tool_execution_start","toolCallId":"call_1","toolName":"bash","args":{"command":"rm -rf x"}}`
	got := play(5, `{"type":"session_start","reason":"startup"}`, `{"type":"agent_start"}`, tool, `{"dialog":"select"}`, `{"answer":"Yes"}`)
	want := []string{"session_start", "agent_start", "tool_execution_start", "dialog_shown", "dialog_closed"}
	if !slices.Equal(types(got), want) {
		t.Fatalf("forwarded %q, want %q", types(got), want)
	}
	for _, f := range got[3:] {
		if f.Properties.ID != "call_1" || f.Properties.Permission != "bash" {
			t.Errorf("%s names call %q tool %q, want call_1 bash", f.Type, f.Properties.ID, f.Properties.Permission)
		}
	}
	// No call running: another extension's dialog (a command's, a
	// session's) is not a call's; custom draws any component.
	got = play(8, `{"type":"tool_execution_end","toolCallId":"call_1","toolName":"bash"}`, `{"dialog":"confirm"}`, `{"answer":true}`,
		`{"type":"agent_start"}`, strings.Replace(tool, "call_1", "call_2", 1), `{"dialog":"custom"}`, `{"answer":"x"}`)
	want = append(want, "tool_execution_end", "agent_start", "tool_execution_start")
	if !slices.Equal(types(got), want) {
		t.Fatalf("forwarded %q, want %q", types(got), want)
	}
	// Reloaded: the dialog forwarded once, by the new load.
	got = play(13, `{"reload":true}`, `{"type":"session_start","reason":"reload"}`, `{"type":"agent_start"}`,
		strings.Replace(tool, "call_1", "call_3", 1), `{"dialog":"input"}`, `{"answer":"y"}`)
	time.Sleep(300 * time.Millisecond) // a second report would come now
	got = play(0)
	want = append(want, "session_start", "agent_start", "tool_execution_start", "dialog_shown", "dialog_closed")
	if !slices.Equal(types(got), want) {
		t.Fatalf("after a reload: forwarded %q, want %q", types(got), want)
	}
	if f := got[len(got)-1]; f.Properties.ID != "call_3" {
		t.Errorf("after a reload the dialog names call %q, want call_3", f.Properties.ID)
	}
	if stderr.Len() > 0 {
		t.Errorf("node printed on stderr:\n%s", stderr.String())
	}
}
