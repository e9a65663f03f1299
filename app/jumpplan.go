//go:build !gnustep

package app

import (
	"context"

	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/session"
)

// jumpPlanner is the app's act.Jumper.Plan: nil, jump.PlanFor. The
// GNUstep harness has its own (jumpplan_gnustep.go).
func jumpPlanner() func(ctx context.Context, rec session.Record) jump.Plan { return nil }
