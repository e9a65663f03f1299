package app

import (
	"testing"

	"github.com/mew-dev/mew/jump"
)

func TestJumpFeedback(t *testing.T) {
	if s := jumpFeedback(jump.Result{Precision: jump.Tab}); s != "" {
		t.Errorf("a jump that worked makes no sound, got %q", s)
	}
	if s := jumpFeedback(jump.Result{Precision: jump.None, Message: "did not jump"}); s != jumpFailedSound {
		t.Errorf("a failed jump sounds %q, got %q", jumpFailedSound, s)
	}
	if s := jumpFeedback(jump.Result{Precision: jump.None, Dropped: true}); s != "" {
		t.Errorf("a jump replaced by a newer click is silent, got %q", s)
	}
	if s := jumpFeedback(jump.Result{Precision: jump.App}); s != "" {
		t.Errorf("an app-only jump still brought something forward, got %q", s)
	}
}
