package board

import (
	"time"

	"testing"

	"github.com/mew-dev/mew/session"
)

func TestQuotaBarsOfHostileFigures(t *testing.T) {
	for _, p := range []float64{-5, 0, 100, 250, 1e300} {
		bars := Quotas([]session.Shown{withQuota("a", session.AgentClaude, qNow, &session.Quota{UsedPercent: p}, nil)}, qNow, 90)
		if got := []rune(bars[0].TextBar(10)); len(got) != 10 {
			t.Errorf("%v%%: bar %q", p, string(got))
		}
		f := WithQuotas(Draw(nil, qNow, 0), bars, time.UTC)
		for _, r := range f.Rects {
			if r.W < 0 || r.X+r.W > f.W {
				t.Errorf("%v%%: rect %+v outside the frame", p, r)
			}
		}
	}
}
