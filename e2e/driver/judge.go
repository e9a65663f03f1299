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
