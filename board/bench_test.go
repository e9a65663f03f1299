package board

import (
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// benchTicks runs the panel's per-tick work (Board.Update + Scene.Tick) on
// a steady set of sessions, and reports frames per second and the share of
// ticks the scene reported unchanged (the view skips drawing those).
func benchTicks(b *testing.B, sessions []session.Shown) {
	bd := New(DefaultConfig())
	sc := NewScene()
	unchanged := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now := t0.Add(time.Duration(i) * TickInterval)
		v := bd.Update(sessions, now)
		if f := sc.Tick(v.Rows, now); f.Unchanged {
			unchanged++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
	b.ReportMetric(100*float64(unchanged)/float64(b.N), "%unchanged")
}

// 20 sessions: 4 waiting, 8 done or failed, 8 working cats pacing.
func BenchmarkTick20Mixed(b *testing.B) { benchTicks(b, mixedSessions(20, t0)) }

// 20 sessions that all need the person: what the panel shows most.
func BenchmarkTick20NeedsYou(b *testing.B) {
	s := mixedSessions(20, t0)
	for i := range s {
		if s[i].State == session.Working {
			s[i].State = session.Done
		}
	}
	benchTicks(b, s)
}

// The cost of a tick whose frame changed: a full draw of 20 rows.
func BenchmarkDraw20(b *testing.B) {
	rows := Arrange(mixedSessions(20, t0), t0, DefaultConfig())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Draw(rows, t0, uint64(i))
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
}
