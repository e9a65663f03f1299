// Package hookcli is the hook's command-line contract: what `mew install`
// writes into an agent's settings, plugin or hook file and what mew-hook
// (package hookbin) reads back. Both sides take the names from here, so
// install does not link the hook program for its constants.
package hookcli

import "time"

// AgentFlag is how `mew install` tells the hook which agent runs it: the
// command line of every agent but Claude Code ends in AgentFlag + NAME.
const AgentFlag = "--agent="

// EventFlag names the event on the command line of an agent whose payloads
// do not (Copilot CLI: `mew install` writes one command per event).
const EventFlag = "--event="

// StatuslineFlag makes mew-hook Claude Code's statusline command (`mew
// install --statusline`): it runs the person's own statusline command, if
// they had one, with the same input, its output going straight to Claude
// Code, and records the usage the input carries in the session's file.
const StatuslineFlag = "--statusline"

// StatuslineCommandFile, in $MEW_HOME, holds the person's own statusline
// command (the statusLine.command Mew's replaced), byte for byte; absent
// or empty when they had none. Plain bytes, not JSON: the wrapper reads
// it on every redraw.
const StatuslineCommandFile = "statusline-command"

// MaxStatuslineCommand bounds the statusline-command file: the wrapper and
// install read no more of it.
const MaxStatuslineCommand = 64 << 10

// RunEnv is the environment `mew install` sets in the hook's command line
// (GOMAXPROCS=1 "$HOME/.mew/bin/mew-hook"). The hook is one goroutine doing
// a few file operations in a row; with Go's default of one processor per
// core the runtime also sets up and wakes the idle ones. Measured on a
// 2-core Linux VM: 40 fewer page faults (of ~250) and 0.1 ms less CPU per
// call; machines with more cores save more. It only works from the
// environment: the runtime reads it before main, and calling
// runtime.GOMAXPROCS in main was measured to save nothing.
const RunEnv = "GOMAXPROCS=1"

// ViaEnv names who ran the hook: Mew's plugins' hook script sets it to
// "plugin"; a settings entry leaves it unset. An event delivered through
// both ways is folded once; two deliveries through one way are two events
// (a repeated prompt, a status back to busy). An environment variable, not
// an argument: an older mew-hook ignores it rather than the event.
const ViaEnv = "MEW_HOOK_VIA"

// Deadline: the hook exits this long after it started, whatever happens,
// logging the event it could not record (a payload that never arrives, a
// file system that hangs). On a loaded machine a burst of hooks can take
// seconds just to start and read their payloads (2000 at once: see
// hookbin's TestConcurrentHooksLoseNothing). The agents' own timeouts for
// Mew's entries (install.Timeout, 10 s) are longer, so Mew gives up first.
const Deadline = 7 * time.Second
