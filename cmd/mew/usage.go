package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/monitor/combine"
	"github.com/mew-dev/mew/session"
	mewusage "github.com/mew-dev/mew/usage"
)

func init() {
	add(&command{name: "usage", summary: "quota (5 h, weekly) per account, context and cost per session (--json)", setup: usageFlags})
}

func usageFlags(fs *flag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print JSON: the accounts' quotas and each session's figures")
	return func(args []string, stdout, stderr io.Writer) int { return runUsage(*asJSON, args, stdout, stderr) }
}

// usageReport is `mew usage --json`.
type usageReport struct {
	Accounts []mewusage.Account `json:"accounts"`
	Sessions []sessionUsage     `json:"sessions"`
}

type sessionUsage struct {
	ID      string         `json:"id"`
	Agent   string         `json:"agent"`
	Host    string         `json:"host,omitempty"`
	Project string         `json:"project"`
	Usage   *session.Usage `json:"usage"`
}

func runUsage(asJSONFlag bool, args []string, stdout, stderr io.Writer) int {
	asJSON := &asJSONFlag
	o, err := monitorOptions()
	if err != nil {
		return fail(stderr, "mew usage", err)
	}
	stdout = text.NewWriter(stdout)
	attachRemotes(context.Background(), &o, false, stderr, "usage")
	shown := snapshot(o, "usage", stderr)
	rep := usageReport{Accounts: mewusage.Accounts(shown), Sessions: []sessionUsage{}}
	if rep.Accounts == nil {
		rep.Accounts = []mewusage.Account{}
	}
	for _, s := range shown {
		if s.Usage != nil {
			rep.Sessions = append(rep.Sessions, sessionUsage{ID: s.ID, Agent: s.Agent, Host: s.Host, Project: combine.Project(s.Cwd), Usage: s.Usage})
		}
	}
	if *asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return fail(stderr, "mew usage", err)
		}
		return 0
	}
	printUsage(stdout, rep, shown, time.Now())
	return 0
}

func printUsage(w io.Writer, rep usageReport, shown []session.Shown, now time.Time) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	bars := board.Quotas(shown, now, board.DefaultQuotaThreshold)
	if len(bars) == 0 {
		fmt.Fprintln(tw, "No quota reported. Claude Code reports it to `mew install --statusline` (with a claude.ai plan); Codex in its rollout.")
	} else {
		fmt.Fprintln(tw, "ACCOUNT\tWINDOW\tUSED\t\tRESETS\tREAD")
		for _, b := range bars {
			resets := "-"
			if !b.ResetsAt.IsZero() {
				resets = b.ResetsAt.Local().Format("Mon 15:04")
			}
			if b.Reset {
				resets += " (reset since)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s ago\n", b.Who(), b.Window, b.PercentText(), b.TextBar(10), resets, board.FormatAge(b.Age))
		}
	}
	tw.Flush()
	if len(rep.Sessions) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tAGENT\tPROJECT\tCONTEXT\tCOST\tTOKENS\tMODEL\tREAD")
	for _, s := range rep.Sessions {
		u := s.Usage
		ctx, cost, tokens := "-", "-", "-"
		if u.ContextPercent != nil {
			ctx = fmt.Sprintf("%d%%", int(math.Round(*u.ContextPercent)))
			if u.ContextSize > 0 {
				ctx += fmt.Sprintf(" of %dk", u.ContextSize/1000)
			}
		}
		if u.CostUSD != nil {
			cost = fmt.Sprintf("$%.2f", *u.CostUSD)
		}
		if u.TotalTokens > 0 {
			tokens = fmt.Sprint(u.TotalTokens)
		}
		agent := s.Agent
		if s.Host != "" {
			agent += "@" + s.Host
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s ago\n", shortID(s.ID), agent, text.OneLine(s.Project, 30), ctx, cost, tokens,
			dash(strings.TrimSpace(text.OneLine(u.Model, 24))), board.FormatAge(now.Sub(u.At)))
	}
	tw.Flush()
}
