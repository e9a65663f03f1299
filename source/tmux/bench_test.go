package tmux

import (
	"context"
	"fmt"
	"testing"

	"github.com/mew-dev/mew/rules"
)

// BenchmarkSweep reads five agents' panes (a list and a batched capture:
// two tmux processes). For the README: 1 sweep every screen.SweepEvery.
func BenchmarkSweep(b *testing.B) {
	s := startServerTB(b)
	agent := s.fakeAgent(promptScreen)
	for range 5 {
		s.tmux("new-window", "-t", "work", agent)
	}
	src := newSource(s)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		obs, err := src.sweep(context.Background(), Exec{Socket: s.socket}, rules.Embedded())
		if err != nil || len(obs) != 5 {
			b.Fatal(fmt.Sprint(len(obs), err))
		}
	}
}
