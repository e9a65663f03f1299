//go:build gnustep

package app

import (
	"context"
	"encoding/json"
	"os"

	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/session"
)

// jumpPlanner, in the GNUstep harness (tools/gnustep): with
// MEW_GNUSTEP_JUMP_LOG set, every jump's plan (jump.PlanFor's) is appended
// to that file as one JSON line and nothing is run: no osascript or tmux
// from a test. Without it, jump.PlanFor as in the app.
func jumpPlanner() func(ctx context.Context, rec session.Record) jump.Plan {
	path := os.Getenv("MEW_GNUSTEP_JUMP_LOG")
	if path == "" {
		return nil
	}
	return func(ctx context.Context, rec session.Record) jump.Plan {
		p := jump.PlanFor(ctx, rec)
		if b, err := json.Marshal(p); err == nil {
			if f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err == nil {
				f.Write(append(b, '\n'))
				f.Close()
			}
		}
		return jump.Plan{SessionID: rec.ID, Precision: jump.None, Mechanism: "none", Why: "recorded by the GNUstep harness"}
	}
}
