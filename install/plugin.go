package install

// OpenCode and Amp run no hook commands: they load JavaScript plugins. Mew
// writes one small plugin file of its own into the agent's plugins folder
// and takes exactly that file out again. The plugin forwards the agent's
// session events to mew-hook (`--agent=NAME`): one hook process at a time,
// in order (a turn's busy and idle can be milliseconds apart), fire and
// forget, bounded (at most 64 waiting, 5 s each), silent on any failure, so
// it never delays or breaks the agent. Which events mean what is the
// reducer's table, not the plugin's: the plugin forwards the agent's own
// event objects, with the fields Mew reads.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mew-dev/mew/internal/hookcli"
	"github.com/mew-dev/mew/store"
)

// Plugin is how Mew's plugin file for an agent is made.
type Plugin struct {
	// Header lines the agent requires first in the file (Amp's
	// acknowledgement of its experimental API).
	Header []string
	// Body registers with the agent and calls forward(event) for each event
	// worth sending (JavaScript, also valid TypeScript).
	Body string
	// Render, when set, makes the whole file instead (Copilot CLI's hooks
	// file of Mew's own is JSON, not a script); it carries pluginMarker.
	Render func(a Agent, e Env) ([]byte, error)
	// Detached starts each hook in a session of its own: pi runs in the
	// terminal's foreground process group, whose hangup (the window
	// closed) would otherwise end the hook that reports the exit.
	Detached bool
}

// pluginMarker is on the line that says the file is Mew's: uninstall
// removes a file only when it is there.
const pluginMarker = "mew-plugin: written by `mew install`"

// maxPlugin bounds what is read of a file at the plugin's path.
const maxPlugin = 1 << 20

// Source is the plugin file for env.
func (p *Plugin) Source(a Agent, e Env) ([]byte, error) {
	if p.Render != nil {
		return p.Render(a, e)
	}
	hookExpr, err := jsPath(HookPath(e.MewHome), e.Home)
	if err != nil {
		return nil, err
	}
	envExpr := `GOMAXPROCS: "1"`
	if e.Home == "" || filepath.Clean(e.MewHome) != filepath.Join(filepath.Clean(e.Home), ".mew") {
		home, err := jsPath(e.MewHome, e.Home)
		if err != nil {
			return nil, err
		}
		envExpr += ", MEW_HOME: " + home
	}
	var b strings.Builder
	for _, h := range p.Header {
		b.WriteString(h + "\n")
	}
	fmt.Fprintf(&b, "// Mew's plugin for %s: forwards its session events to Mew (%s).\n", a.Title, "https://github.com/mew-dev/mew")
	fmt.Fprintf(&b, "// %s --agent %s; `mew uninstall` removes this file.\n", pluginMarker, a.Name)
	spawnOpts := ""
	if p.Detached {
		spawnOpts = ", detached: true"
	}
	fmt.Fprintf(&b, forwarder, hookExpr, envExpr, jsString(hookcli.AgentFlag+a.Name), spawnOpts)
	b.WriteString(p.Body)
	return []byte(b.String()), nil
}

// forwarder is the part every plugin shares: hook path, environment,
// arguments, then the queue.
const forwarder = `import { spawn } from "node:child_process"
import { homedir } from "node:os"
import { join } from "node:path"

const hook = %s
const env = { ...process.env, %s }
const args = [%s]

// One hook process at a time, in order; at most 64 events wait (more are
// dropped); each run gets 5 s. Nothing here may delay or break the agent.
const queue = []
let running = false

function forward(event) {
  if (queue.length >= 64) return
  queue.push(JSON.stringify(event))
  if (!running) next()
}

function next() {
  const payload = queue.shift()
  running = payload !== undefined
  if (!running) return
  let child
  let timer = setTimeout(() => {
    try { child?.kill("SIGKILL") } catch {}
    done()
  }, 5000)
  timer.unref?.()
  function done() {
    if (timer === undefined) return
    clearTimeout(timer)
    timer = undefined
    next()
  }
  try {
    child = spawn(hook, args, { env, stdio: ["pipe", "ignore", "ignore"]%s })
    child.on("error", done)
    child.on("exit", done)
    child.stdin.on("error", () => {})
    child.stdin.end(payload)
    child.unref()
  } catch {
    done()
  }
}
`

// openCodePlugin forwards OpenCode's session events. One file loads on
// OpenCode 1.18 and 2.x: its default export carries server (1.x: called
// with the project, returns the event hook) and setup (2.x: subscribes to
// ctx.event, whose events carry their fields in data). 2.x events are
// forwarded under their own names with the fields Mew reads named as 1.x
// names them (permission.asked's action and resources). A subagent's
// session (created with a parentID) is part of its parent's turn: only its
// permission requests are forwarded, on the parent's session.
var openCodePlugin = &Plugin{Body: `
const kinds = new Set(["session.created", "session.status", "session.idle", "session.error", "permission.asked", "permission.replied",
  "session.execution.started", "session.execution.succeeded", "session.execution.interrupted", "session.execution.failed",
  "question.asked", "question.replied", "question.rejected", "form.asked", "form.replied", "form.rejected"])
const parents = new Map()
// OpenCode repeats busy at every step and reports idle twice (session.status
// and session.idle): a status equal to the last one forwarded for the
// session is dropped, until any other event of the session.
const statuses = new Map()

function repeated(type, p) {
  const status = type === "session.idle" ? "idle" : type === "session.status" ? p.status?.type : undefined
  if (status === undefined) {
    statuses.delete(p.sessionID)
    return false
  }
  if (statuses.get(p.sessionID) === status) return true
  statuses.set(p.sessionID, status)
  return false
}

function handle(type, p, directory) {
  try {
    if (!kinds.has(type) || !p || typeof p !== "object") return
    const info = p.info ?? {}
    if (type === "session.created" && info.parentID) {
      parents.set(info.id, parents.get(info.parentID) ?? info.parentID)
      return
    }
    const cwd = typeof p.directory === "string" && p.directory ? p.directory : directory
    const parent = parents.get(p.sessionID)
    if (parent !== undefined) {
      if (type.startsWith("permission.")) forward({ cwd, type, properties: { ...p, sessionID: parent } })
      return
    }
    if (repeated(type, p)) return
    forward({ cwd, type, properties: p })
  } catch {}
}

// 2.x: permission.asked names what it asks as action and resources.
function fromV2(type, d) {
  if (type === "permission.asked" && d.permission === undefined) {
    return { ...d, permission: d.action, metadata: { resources: d.resources } }
  }
  if (type === "session.execution.failed" && typeof d.error === "string") return { ...d, error: { name: d.error } }
  return d
}

export default {
  id: "mew",
  server: async ({ directory }) => ({
    event: async ({ event }) => {
      if (event) handle(event.type, event.properties ?? {}, directory)
    },
  }),
  setup: async (ctx) => {
    const directory = ctx?.directory ?? ctx?.project?.directory ?? ctx?.worktree ?? ""
    const take = (event) => {
      try {
        if (event) handle(event.type, fromV2(event.type, event.data ?? {}), directory)
      } catch {}
    }
    try {
      const sub = ctx?.event?.subscribe?.(take)
      if (sub && typeof sub[Symbol.asyncIterator] === "function") {
        ;(async () => {
          try {
            for await (const event of sub) take(event)
          } catch {}
        })()
      }
    } catch {}
  },
}
`}

// ampPlugin forwards Amp's turn events: agent.start (with the prompt) and
// agent.end (done, error or cancelled), without the thread's messages. Amp
// runs plugins in a runtime of its own whose working directory is the
// plugins folder: the session's folder is the API's system.workspaceRoot
// (a path, a file: URL, or a function giving one), else the PWD Amp was
// started with, never the plugins folder.
var ampPlugin = &Plugin{
	Header: []string{"// @i-know-the-amp-plugin-api-is-wip-and-very-experimental-right-now"},
	Body: `
function asPath(v) {
  if (v && typeof v === "object") v = v.fsPath ?? v.path ?? v.href ?? ""
  if (typeof v !== "string") return ""
  if (v.startsWith("file://")) {
    try { return decodeURIComponent(new URL(v).pathname) } catch { return "" }
  }
  return v.startsWith("/") ? v : ""
}

function fallbackRoot() {
  const pwd = asPath(process.env.PWD ?? "")
  return pwd && pwd !== process.cwd() && !pwd.includes("/amp/plugins") ? pwd : ""
}

async function workspaceRoot(amp) {
  try {
    let w = amp?.system?.workspaceRoot
    if (typeof w === "function") w = w.call(amp.system)
    if (w && typeof w.then === "function") w = await w
    return asPath(w) || fallbackRoot()
  } catch {
    return fallbackRoot()
  }
}

export default function (amp) {
  const root = workspaceRoot(amp)
  const send = (event) => {
    root.then((cwd) => forward({ cwd, ...event }), () => {})
  }
  amp.on("agent.start", (event) => {
    try {
      send({ type: "agent.start", thread: { id: event?.thread?.id }, message: typeof event?.message === "string" ? event.message : "" })
    } catch {}
    return undefined
  })
  amp.on("agent.end", (event) => {
    try {
      send({ type: "agent.end", thread: { id: event?.thread?.id }, status: String(event?.status ?? "") })
    } catch {}
  })
}
`}

// piPlugin is Mew's extension for pi (~/.pi/agent/extensions/mew.ts,
// loaded in pi's process): its session, run and tool events. pi asks
// nothing itself: a dialog comes from another extension (its example
// permission-gate.ts: ctx.ui.select in tool_call), and pi has no event for
// one. Every extension's ctx.ui is the one object pi binds them all to, so
// its dialog methods are wrapped: a dialog shown while a tool call runs is
// forwarded as that call's dialog_shown, its answer as dialog_closed. The
// wrapper hands back pi's own promise untouched (it never waits), and
// wraps each method once across reloads (the original kept under a
// symbol). agent_end is forwarded with
// the stopReason of the run's last reply; pi retries a failed request by
// itself and each attempt ends in its own agent_end, so an agent_end pi
// will retry goes as "retry" (still working), judged the way pi 0.73
// judges it (agent-session.js: _isRetryableError, getRetrySettings; the
// attempts since the person's prompt). If that retry does not start in
// time (the settings changed inside pi, Escape on the countdown), the
// failure is forwarded then. session_shutdown is the last thing pi does
// before it exits: its hook is started at once, past any queue, and pi
// waits (at most 0.5 s) only until the event is in the hook's stdin.
var piPlugin = &Plugin{Detached: true, Body: `
import { readFileSync } from "node:fs"

const retryable = /overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|connection.?refused|connection.?lost|websocket.?closed|websocket.?error|other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|ended without|http2 request did not get a response|timed? out|timeout|terminated|retry delay/i

function retrySettings(cwd) {
  const s = { enabled: true, maxRetries: 3, baseDelayMs: 2000 }
  let dir = process.env.PI_CODING_AGENT_DIR || join(homedir(), ".pi", "agent")
  if (dir === "~" || dir.startsWith("~/")) dir = join(homedir(), dir.slice(1))
  for (const file of [join(dir, "settings.json"), cwd ? join(cwd, ".pi", "settings.json") : ""]) {
    if (!file) continue
    try {
      const r = JSON.parse(readFileSync(file, "utf8"))?.retry
      if (!r || typeof r !== "object") continue
      if (typeof r.enabled === "boolean") s.enabled = r.enabled
      if (Number.isFinite(r.maxRetries)) s.maxRetries = r.maxRetries
      if (Number.isFinite(r.baseDelayMs)) s.baseDelayMs = r.baseDelayMs
    } catch {}
  }
  return s
}

function lastReply(messages) {
  if (!Array.isArray(messages)) return undefined
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "assistant") return messages[i]
  }
  return undefined
}

function sessionOf(ctx) {
  try {
    const id = ctx?.sessionManager?.getSessionId?.()
    return typeof id === "string" ? id : ""
  } catch {
    return ""
  }
}

function send(type, ctx, more) {
  const cwd = typeof ctx?.cwd === "string" ? ctx.cwd : ""
  return { type, cwd, properties: { sessionID: sessionOf(ctx), ...more?.properties }, status: more?.status ?? "" }
}

// The exit's event: started now, not behind the queue (pi exits when its
// handlers return); resolves once the event is written to the hook.
function sendLast(event) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 500)
    timer.unref?.()
    const finish = () => {
      clearTimeout(timer)
      resolve(undefined)
    }
    try {
      queue.length = 0
      const child = spawn(hook, args, { env, stdio: ["pipe", "ignore", "ignore"], detached: true })
      child.on("error", finish)
      child.stdin.on("error", finish)
      child.stdin.end(JSON.stringify(event), finish)
      child.unref()
    } catch {
      finish()
    }
  })
}

// The dialog methods of pi's ctx.ui (custom draws any component, often
// no question: left alone).
const dialogMethods = ["select", "confirm", "input", "editor"]
const unwrapped = Symbol.for("mew.pi.dialog") // a wrapper's original, across reloads
const mine = Symbol("mew.pi.dialog.wrapper") // this load's wrapper

export default function (pi) {
  const calls = [] // tool calls started and not ended, oldest first
  let last // the newest ctx a handler got
  const watchDialogs = (ctx) => {
    const ui = ctx?.hasUI ? ctx.ui : undefined
    if (!ui || typeof ui !== "object") return
    for (const m of dialogMethods) {
      const current = ui[m]
      if (typeof current !== "function" || current[mine]) continue
      const orig = current[unwrapped] ?? current
      const wrapper = function (...a) {
        const p = orig.apply(this, a)
        try {
          const call = calls[calls.length - 1]
          if (call) {
            const props = { properties: { id: call.id, permission: call.name } }
            forward(send("dialog_shown", last, props))
            const closed = () => {
              try {
                forward(send("dialog_closed", last, props))
              } catch {}
            }
            Promise.resolve(p).then(closed, closed)
          }
        } catch {}
        return p
      }
      wrapper[unwrapped] = orig
      wrapper[mine] = true
      try {
        ui[m] = wrapper
      } catch {}
    }
  }
  let attempts = 0 // failed attempts pi retried since the person's prompt
  let overdue // the failure to forward if the retry pi should start does not
  const cancelOverdue = () => {
    if (overdue !== undefined) clearTimeout(overdue)
    overdue = undefined
  }
  const on = (name, handle) => {
    try {
      pi.on(name, (event, ctx) => {
        try {
          last = ctx
          try {
            watchDialogs(ctx)
          } catch {}
          return handle(event ?? {}, ctx)
        } catch {}
        return undefined
      })
    } catch {}
  }
  on("session_start", (_e, ctx) => {
    cancelOverdue()
    attempts = 0
    calls.length = 0
    forward(send("session_start", ctx))
  })
  on("before_agent_start", () => {
    attempts = 0
  })
  on("agent_start", (_e, ctx) => {
    cancelOverdue()
    calls.length = 0
    forward(send("agent_start", ctx))
  })
  on("message_end", (e) => {
    if (e.message?.role === "assistant" && e.message.stopReason !== "error") attempts = 0
  })
  on("tool_execution_start", (e, ctx) => {
    calls.push({ id: String(e.toolCallId ?? ""), name: String(e.toolName ?? "") })
    forward(send("tool_execution_start", ctx, { properties: { id: String(e.toolCallId ?? ""), permission: String(e.toolName ?? "") } }))
  })
  on("tool_execution_end", (e, ctx) => {
    const i = calls.findIndex((c) => c.id === String(e.toolCallId ?? ""))
    if (i >= 0) calls.splice(i, 1)
    forward(send("tool_execution_end", ctx, { properties: { id: String(e.toolCallId ?? ""), permission: String(e.toolName ?? "") } }))
  })
  on("agent_end", (e, ctx) => {
    cancelOverdue()
    const reply = lastReply(e.messages)
    let status = String(reply?.stopReason ?? "stop")
    if (status === "error") {
      const s = retrySettings(ctx?.cwd)
      if (s.enabled && retryable.test(String(reply.errorMessage ?? "")) && attempts < s.maxRetries) {
        attempts++
        status = "retry"
        const failed = send("agent_end", ctx, { status: "error" })
        overdue = setTimeout(() => {
          overdue = undefined
          attempts = 0
          forward(failed)
        }, s.baseDelayMs * 2 ** (attempts - 1) + 5000)
        overdue.unref?.()
      } else {
        attempts = 0
      }
    }
    forward(send("agent_end", ctx, { status }))
  })
  on("session_shutdown", (e, ctx) => {
    cancelOverdue()
    return sendLast(send("session_shutdown", ctx, { status: String(e.reason ?? "") }))
  })
}
`}

// jsPath is p as a JavaScript expression: join(homedir(), "rel") under
// home (a plugins folder is often shared in a dotfiles repository), else
// the absolute path.
func jsPath(p, home string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("%q is not an absolute path", p)
	}
	p = filepath.Clean(p)
	if home != "" && filepath.IsAbs(home) {
		if rel, err := filepath.Rel(filepath.Clean(home), p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "join(homedir(), " + jsString(filepath.ToSlash(rel)) + ")", nil
		}
	}
	return jsString(p), nil
}

// jsString is s as a JavaScript string literal (JSON's, which escapes
// U+2028 and U+2029 too).
func jsString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSpace(b.String())
}

// pluginFile is what is at the plugin's path.
type pluginFile struct {
	path   string
	exists bool
	ours   bool // it carries pluginMarker
	data   []byte
}

func readPlugin(path string) (pluginFile, error) {
	f := pluginFile{path: path}
	fi, err := lstatFile(path)
	switch {
	case err != nil || fi == nil:
		return f, err
	case !fi.Mode().IsRegular():
		return f, &FileError{Path: path, Err: errors.New("not a regular file (a symlink or a folder): Mew writes only its own plain file there")}
	case fi.Size() > maxPlugin:
		return f, &FileError{Path: path, Err: errors.New("a large file Mew did not write")}
	}
	f.data, err = os.ReadFile(path)
	if err != nil {
		return f, &FileError{Path: path, Err: err}
	}
	f.exists, f.ours = true, bytes.Contains(f.data, []byte(pluginMarker))
	return f, nil
}

func installPlugin(o Options) (Report, error) {
	a := o.agent()
	want, err := a.Plugin.Source(a, o.Env)
	if err != nil {
		return Report{}, err
	}
	unlock, err := o.lock(true)
	if err != nil {
		return Report{}, err
	}
	defer unlock()
	f, err := readPlugin(a.Path(o.Env))
	if err != nil {
		return Report{}, err
	}
	if f.exists && !f.ours {
		return Report{}, &FileError{Path: f.path, Err: errors.New("a file Mew did not write is there")}
	}
	rep := Report{Settings: f.path, Plugin: true, PluginNoun: a.pluginNoun(), Created: !f.exists, Wrote: !bytes.Equal(f.data, want)}
	if o.HookSource != "" {
		if rep.Hook, rep.HookUpdated, err = copyHook(o.HookSource, o.MewHome, o.DryRun); err != nil {
			return rep, err
		}
	}
	if a.Name == OpenCode.Name {
		cfg := filepath.Dir(filepath.Dir(f.path))
		if plan, err := planOffline(cfg); err == nil {
			if plan.makeModules {
				rep.Also = append(rep.Also, plan.modules)
			}
			if plan.writeLock {
				rep.Also = append(rep.Also, plan.lock)
			}
		}
		if !o.DryRun {
			if err := writeOffline(cfg); err != nil {
				return rep, err
			}
		}
	}
	if o.DryRun {
		return rep, nil
	}
	if !rep.Wrote {
		return rep, nil
	}
	if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
		return rep, &FileError{Path: f.path, Err: err}
	}
	if err := store.WriteFileAtomic(f.path, want, 0o644); err != nil {
		return rep, &FileError{Path: f.path, Err: err}
	}
	return rep, nil
}

// uninstallPlugin is Uninstall (which holds the lock) for a Plugin.
func uninstallPlugin(o Options) (Report, error) {
	a := o.agent()
	f, err := readPlugin(a.Path(o.Env))
	if err != nil {
		return Report{}, err
	}
	rep := Report{Settings: f.path, Plugin: true, PluginNoun: a.pluginNoun()}
	if !f.exists {
		return rep, nil
	}
	if !f.ours {
		return rep, &FileError{Path: f.path, Err: errors.New("this file is not Mew's plugin (no mark of `mew install` in it)")}
	}
	rep.Wrote, rep.Removed = true, true
	if o.DryRun {
		return rep, nil
	}
	if err := os.Remove(f.path); err != nil {
		return rep, &FileError{Path: f.path, Err: err}
	}
	if a.Name == OpenCode.Name {
		removeOffline(filepath.Dir(filepath.Dir(f.path)))
	}
	return rep, nil
}

// checkPlugin is the doctor's check of a plugin agent.
func checkPlugin(o DoctorOptions, a Agent, add addFunc) {
	want, err := a.Plugin.Source(a, o.Env)
	if err != nil {
		add(Problem, "%v", err)
		return
	}
	f, err := readPlugin(a.Path(o.Env))
	switch {
	case err != nil:
		add(Problem, "cannot read %s's plugin: %v", a.Title, err)
	case !f.exists:
		add(Problem, "Mew's %s for %s is not installed (%s); run %s", a.pluginNoun(), a.Title, f.path, installHint(a))
	case !f.ours:
		add(Problem, "%s is not Mew's %s; move it away and run %s", f.path, a.pluginNoun(), installHint(a))
	case !bytes.Equal(f.data, want):
		add(Warning, "Mew's %s %s is from another mew (or MEW_HOME); run %s to update it", a.pluginNoun(), f.path, installHint(a))
	default:
		add(OK, "Mew's %s for %s is installed at %s", a.pluginNoun(), a.Title, f.path)
	}
}

// pluginNoun is what Mew's file of its own is to the agent: Copilot CLI
// runs a hooks file, the others load a plugin.
func (a Agent) pluginNoun() string {
	if a.Name == Copilot.Name {
		return "hooks file"
	}
	return "plugin"
}
