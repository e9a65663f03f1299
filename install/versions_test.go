package install

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestEventsKnownByVersion(t *testing.T) {
	events := []string{"SessionStart", "PreSkillShellCommand", "Stop"}
	cases := map[string][]string{
		"2.1.332 (Claude Code)": events,
		"2.1.400 (Claude Code)": events,
		"3.0.0":                 events,
		"2.1.331 (Claude Code)": {"SessionStart", "Stop"},
		"2.1.328":               {"SessionStart", "Stop"},
		"":                      {"SessionStart", "Stop"}, // unknown: the conservative set
		"claude: not found":     {"SessionStart", "Stop"},
	}
	for ver, want := range cases {
		if got := eventsKnown(events, claudeNewerEvents, ver); !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", ver, got, want)
		}
	}
	if got := unknownEvents(events, claudeNewerEvents, "2.1.331 (Claude Code)"); !slices.Equal(got, []string{"PreSkillShellCommand"}) {
		t.Errorf("unknown at 2.1.331: %v", got)
	}
	if got := unknownEvents(events, claudeNewerEvents, "garbage"); got != nil {
		t.Errorf("an unreadable version named %v unknown", got)
	}
}

// mew install with a version that does not know an event leaves it out;
// the doctor flags an event in settings.json the installed CLI does not
// know (a dialog at every start).
func TestInstallAndDoctorFollowTheVersion(t *testing.T) {
	env, src := installed(t)
	saved := claudeNewerEvents
	t.Cleanup(func() { claudeNewerEvents = saved })
	// As if Mew registered an event newer than the installed CLI.
	claudeNewerEvents = []eventSince{{"Stop", version{2, 1, 332}}}
	// Installed for a CLI that knows it, then the CLI is an older one.
	if _, err := Install(Options{Env: env, HookSource: src, Version: "2.1.332 (Claude Code)"}); err != nil {
		t.Fatal(err)
	}
	claude := fakeClaude(t, `echo "2.1.331 (Claude Code)"`)
	fs := Doctor(DoctorOptions{Env: env, HookSource: src, Claude: claude})
	expectFinding(t, fs, Problem, "names hook events Stop Claude Code does not know")
	// Fresh home: an old CLI gets no Stop entry at all.
	env2 := testEnv(t)
	if _, err := Install(Options{Env: env2, HookSource: src, Version: "2.1.331 (Claude Code)"}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(env2.SettingsPath()); strings.Contains(string(data), `"Stop"`) {
		t.Fatal("Stop registered for a version that does not know it")
	}
	if fs := Doctor(DoctorOptions{Env: env2, HookSource: src, Claude: claude}); len(find(fs, "does not know")) > 0 {
		t.Fatalf("flagged after a version-aware install:\n%s", dump(fs))
	}
}
