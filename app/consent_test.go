package app

import (
	"strings"
	"testing"
)

// The menu's Install Hooks asks before it installs: with changes listed the
// dialog offers Install, which alone runs `mew install --yes`; with nothing
// to change, or a failed plan, it is a plain message.
func TestConsentDialog(t *testing.T) {
	ran := 0
	install := func() { ran++ }
	plan := planHeading + "\nClaude Code:\n  - add Mew's hook to its \"hooks\" value: /h/.claude/settings.json"
	d := consentDialog(commandDialog(planCommand, plan, nil), install)
	if d.Confirm != "Install" || d.OnConfirm == nil || !strings.Contains(d.Text, "settings.json") || !strings.Contains(d.Text, "changes nothing until you choose Install") {
		t.Fatalf("dialog with changes: %+v", d)
	}
	if ran != 0 {
		t.Fatal("install ran before the person chose it")
	}
	d.OnConfirm()
	if ran != 1 {
		t.Fatal("Install did not run install")
	}
	for _, c := range []struct {
		what string
		d    dialog
	}{
		{"nothing to change", commandDialog(planCommand, "Nothing to change: Mew is installed as it should be.", nil)},
		{"a failed plan", dialog{Title: "Install Hooks: problems found", Text: planHeading + "\n…", Failed: true}},
	} {
		if got := consentDialog(c.d, install); got.Confirm != "" || got.OnConfirm != nil {
			t.Errorf("%s: offers Install: %+v", c.what, got)
		}
	}
	if planCommand.Args[1] != "--plan" || installCommand.Args[1] != "--yes" {
		t.Errorf("commands: %v %v", planCommand.Args, installCommand.Args)
	}
}
