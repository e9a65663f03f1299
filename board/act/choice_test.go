package act

import (
	"strings"
	"testing"

	"github.com/mew-dev/mew/session"
)

func TestPickChoice(t *testing.T) {
	choices := []session.Choice{{N: 1, Label: "Yes"}, {N: 2, Label: "Yes, and always allow access to /p"}, {N: 4, Label: "No"}}
	for arg, want := range map[string]int{"1": 1, "4": 4, "no": 4, "NO": 4, "yes": 1, "Yes, and": 2, "n": 4} {
		c, err := PickChoice(choices, arg)
		if err != nil || c.N != want {
			t.Errorf("%q: %+v %v, want %d", arg, c, err, want)
		}
	}
	for arg, why := range map[string]string{"3": "no choice 3", "y": "starts several", "maybe": `no choice "maybe"`, "": "no choice", "0": "no choice 0"} {
		if _, err := PickChoice(choices, arg); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %v, want %q", arg, err, why)
		}
	}
	if _, err := PickChoice(nil, "1"); err == nil || !strings.Contains(err.Error(), "answer in the terminal") {
		t.Errorf("no choices: %v", err)
	}
}
