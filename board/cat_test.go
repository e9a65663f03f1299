package board

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/mew-dev/mew/assets"
)

// fnv1a32 is FNV-1a written out from its definition, to check CatFor
// against.
func fnv1a32(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

func TestSameIDSameCat(t *testing.T) {
	const id = "5c6a12cb-ee2c-4bae-aa26-82bb12872711" // from a real Claude Code run
	c := CatFor(id)
	if c.Hash != fnv1a32(id) {
		t.Fatalf("hash %#x, want FNV-1a %#x", c.Hash, fnv1a32(id))
	}
	// Pinned: changing how a cat is derived (or reordering the coats)
	// changes every person's cats.
	if got := fmt.Sprintf("%s/%d/%d", c.CoatColors().Name, c.StepTicks, c.Phase); got != "smoke/6/108" {
		t.Errorf("cat of %s = %s, want smoke/6/108", id, got)
	}
	for range 3 {
		if CatFor(id) != c {
			t.Fatal("the same id gave another cat")
		}
	}
	if CatFor(id+"x") == c {
		t.Error("another id gave the same cat")
	}
}

// testIDs are n session ids shaped like Claude Code's UUIDs.
func testIDs(n int) []string {
	out := make([]string, n)
	for i := range out {
		b := sha256.Sum256([]byte(fmt.Sprint("session ", i)))
		out[i] = fmt.Sprintf("%x-%x-4%x-a%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])[:36]
	}
	return out
}

func TestCatsSpreadOverThePalette(t *testing.T) {
	ids := testIDs(50)
	k := len(assets.Coats)
	counts := make([]int, k)
	speeds := map[int]int{}
	phases := map[int]bool{}
	for _, id := range ids {
		c := CatFor(id)
		if c.Coat < 0 || c.Coat >= k {
			t.Fatalf("coat %d out of range", c.Coat)
		}
		if c.StepTicks%2 != 0 || c.StepTicks < 2 || c.StepTicks > 6 || c.Phase < 0 || c.Phase > 255 {
			t.Fatalf("cat %+v out of range", c)
		}
		counts[c.Coat]++
		speeds[c.StepTicks]++
		phases[c.Phase] = true
	}
	distinct := 0
	expect := float64(len(ids)) / float64(k)
	chi2 := 0.0
	for _, n := range counts {
		if n > 0 {
			distinct++
		}
		d := float64(n) - expect
		chi2 += d * d / expect
	}
	t.Logf("coat counts %v: %d distinct, chi-square %.1f", counts, distinct, chi2)
	// 50 ids over 12 coats: uniform draws leave at most a coat or two
	// unused; chi-square with 11 degrees of freedom stays under 31.3 with
	// probability 0.999.
	if distinct < k-2 {
		t.Errorf("only %d of %d coats used", distinct, k)
	}
	if chi2 > 31.3 {
		t.Errorf("chi-square %.1f: coats are not spread evenly", chi2)
	}
	if len(speeds) != len(stepTicks) {
		t.Errorf("speeds %v: not every speed is used", speeds)
	}
	for s, n := range speeds {
		if n < 8 {
			t.Errorf("speed %d used by %d of 50 cats", s, n)
		}
	}
	if len(phases) < 40 {
		t.Errorf("only %d distinct phases among 50 cats", len(phases))
	}
}
