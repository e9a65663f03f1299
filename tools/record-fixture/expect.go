package main

import (
	"encoding/json"
	"math"
)

// checkpoint is one line of expect.jsonl.
type checkpoint struct {
	At     float64 `json:"at"`
	State  string  `json:"state"`
	Reason string  `json:"reason,omitempty"`
}

// truth is the state the CLI itself reported from a moment on.
type truth struct {
	t             float64
	state, reason string
}

// settle is how long after a change of the CLI's truth no checkpoint is
// set: Mew may lag the registry by that much.
const settle = 0.15

// deriveCheckpoints turns what the CLI reported into checkpoints, by the
// rules of the shared fixtures' README: the registry's busy is working; its
// waiting is waiting, for a question when the tool waited on is
// AskUserQuestion, a plan for ExitPlanMode, otherwise permission ("permission
// prompt") or input; its idle is done when a Stop came since the last prompt
// and idle otherwise; SessionEnd is exited. One checkpoint sits in the middle
// of each stretch that lasts at least 2×settle. They are derived, not
// judged: a person reviews them before the fixture is trusted.
func deriveCheckpoints(evs []event) []checkpoint {
	var truths []truth
	stopSinceprompt := false
	tool := ""
	for _, e := range evs {
		switch e.Source {
		case "hook":
			var h struct {
				Event string `json:"hook_event_name"`
				Tool  string `json:"tool_name"`
			}
			json.Unmarshal(e.Doc, &h)
			switch h.Event {
			case "UserPromptSubmit":
				stopSinceprompt = false
			case "Stop":
				stopSinceprompt = true
			case "PreToolUse", "PermissionRequest":
				tool = h.Tool
			case "SessionEnd":
				truths = append(truths, truth{e.T, "exited", ""})
			}
		case "registry":
			var d struct {
				Status     string `json:"status"`
				WaitingFor string `json:"waitingFor"`
			}
			if string(e.Doc) == "null" || json.Unmarshal(e.Doc, &d) != nil || d.Status == "" {
				continue
			}
			switch d.Status {
			case "busy":
				truths = append(truths, truth{e.T, "working", ""})
			case "waiting":
				reason := "input"
				switch {
				case tool == "AskUserQuestion":
					reason = "question"
				case tool == "ExitPlanMode":
					reason = "plan"
				case d.WaitingFor == "permission prompt":
					reason = "permission"
				}
				truths = append(truths, truth{e.T, "waiting", reason})
			case "idle":
				st := "idle"
				if stopSinceprompt {
					st = "done"
				}
				truths = append(truths, truth{e.T, st, ""})
			}
		}
	}
	// Exited is final: nothing after it counts.
	for i, tr := range truths {
		if tr.state == "exited" {
			truths = truths[:i+1]
			break
		}
	}
	var out []checkpoint
	for i, tr := range truths {
		end := tr.t + 1 // the last stretch: a second after it began
		if i+1 < len(truths) {
			end = truths[i+1].t
		}
		if tr.state == "exited" {
			out = append(out, checkpoint{At: round(tr.t + settle), State: tr.state})
			continue
		}
		if end-tr.t < 2*settle {
			continue // a blip (idle→busy within milliseconds when Claude re-engages)
		}
		if n := len(out); n > 0 && out[n-1].State == tr.state && out[n-1].Reason == tr.reason {
			continue // the same state again, as a new registry document
		}
		out = append(out, checkpoint{At: round(math.Max(tr.t+settle, (tr.t+end)/2)), State: tr.state, Reason: tr.reason})
	}
	return out
}

func round(x float64) float64 { return math.Round(x*100) / 100 }
