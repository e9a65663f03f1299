package driver

import (
	"sort"
	"time"
)

// Durations summarises how long the `mew status` samples took: on a loaded
// machine a sample is slow to start and to finish, which is part of every
// latency measured.
type Durations struct {
	N                int
	Median, P95, Max time.Duration
}

// SampleDurations computes Durations over samples.
func SampleDurations(samples []Sample) Durations {
	if len(samples) == 0 {
		return Durations{}
	}
	ds := make([]time.Duration, len(samples))
	for i, s := range samples {
		ds[i] = s.End.Sub(s.Start)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return Durations{N: len(ds), Median: ds[len(ds)/2], P95: ds[(len(ds)*95)/100], Max: ds[len(ds)-1]}
}

// How a scenario judges a latency. A scenario fails on a wrong state and on
// a latency only past Ceiling (CeilingFactor times the goal): a goal missed
// by 40 ms on a loaded machine is a number for the summary, not a failed
// run. Whether the goals themselves are met is read off the summary over
// repeated runs (Summarize: median and p95).
const CeilingFactor = 3

// Ceiling is the latency past which a scenario fails.
func Ceiling(goal time.Duration) time.Duration { return CeilingFactor * goal }

// judge sets res's verdicts from its bounds (see MewResult): OK when Mew was
// not provably past the ceiling, Certain when it was provably within the
// goal, OnGoal when it was not provably past the goal.
func judge(res *MewResult, goal time.Duration) {
	res.OK = res.Seen && res.Lo <= Ceiling(goal)
	res.OnGoal = res.Seen && res.Lo <= goal
	res.Certain = res.Seen && res.Hi <= goal
}

// waitUntil is how long WaitMew looks for a change: up to the ceiling, and
// grace past it, so a late change is still measured.
func waitUntil(ref time.Time, goal, grace time.Duration) time.Time {
	return ref.Add(Ceiling(goal) + grace)
}

// Latency is one measured latency of a check, for the summary.
type Latency struct {
	Test, Check string
	Goal        time.Duration
	Res         MewResult
}

// LatencySummary is a check over its runs: how many, the median and p95 of
// each bound, and how many runs were within the goal (provably: Certain;
// possibly: OnGoal).
type LatencySummary struct {
	Test, Check     string
	Goal            time.Duration
	Runs, Seen      int
	Certain, OnGoal int
	PastCeiling     int // runs that failed on this latency
	LoMedian, LoP95 time.Duration
	HiMedian, HiP95 time.Duration
}

// Met says how the goal fared over the runs: "met" when the p95 of the
// upper bound is within it (provably on time in 95 % of runs), "met~" when
// the p95 of the lower bound is (not provably late), else "missed".
func (s LatencySummary) Met() string {
	switch {
	case s.Seen == 0:
		return "never"
	case s.HiP95 <= s.Goal:
		return "met"
	case s.LoP95 <= s.Goal:
		return "met~"
	}
	return "missed"
}

// Summarize groups latencies by test and check (runs of -count=N, in
// order of first appearance) and computes each one's percentiles.
func Summarize(ls []Latency) []LatencySummary {
	type key struct{ test, check string }
	var order []key
	groups := map[key][]Latency{}
	for _, l := range ls {
		k := key{l.Test, l.Check}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], l)
	}
	out := make([]LatencySummary, 0, len(order))
	for _, k := range order {
		g := groups[k]
		s := LatencySummary{Test: k.test, Check: k.check, Goal: g[0].Goal, Runs: len(g)}
		var lo, hi []time.Duration
		for _, l := range g {
			if !l.Res.Seen {
				continue
			}
			s.Seen++
			lo, hi = append(lo, l.Res.Lo), append(hi, l.Res.Hi)
			if l.Res.Certain {
				s.Certain++
			}
			if l.Res.OnGoal {
				s.OnGoal++
			}
			if !l.Res.OK {
				s.PastCeiling++
			}
		}
		s.LoMedian, s.LoP95 = percentiles(lo)
		s.HiMedian, s.HiP95 = percentiles(hi)
		out = append(out, s)
	}
	return out
}

// percentiles are the median and the 95th percentile (nearest rank).
func percentiles(ds []time.Duration) (median, p95 time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	rank := (len(s)*95 + 99) / 100 // ceil(0.95 n), 1-based
	return s[len(s)/2], s[max(rank, 1)-1]
}
