package install

import "testing"

// The hashes the real Codex 0.169.0 wrote into config.toml when its "Hooks
// need review" dialog was answered with "Trust all and continue", for this
// hooks.json:
//
//	PreToolUse:   [{"matcher": "*", "hooks": [{"type": "command", "command": MEW, "timeout": 10}]}]
//	Stop:         [{"hooks": [{"type": "command", "command": MEW, "timeout": 10}]}]
//	SessionStart: [{"matcher": "*", "hooks": [{"type": "command", "command": "true", "timeout": 10}]}]
//
// with MEW = GOMAXPROCS=1 "$HOME/.mew/bin/mew-hook" --agent=codex; and for
// SessionEnd, Interrupt, PermissionRequest and SubagentStop groups without a
// matcher holding {"type": "command", "command": "true", "timeout": 10}.
func TestCodexHashIsWhatCodexWrites(t *testing.T) {
	const mew = `GOMAXPROCS=1 "$HOME/.mew/bin/mew-hook" --agent=codex`
	star := "*"
	ten := int64(10)
	cases := []struct {
		hook codexHook
		want string
	}{
		{codexHook{Event: "PreToolUse", Matcher: &star, Command: mew, Timeout: &ten}, "sha256:34856204af3cdf7c3094ab5ae91600c17bc84290a8f7732933ee54117bea49ac"},
		{codexHook{Event: "Stop", Command: mew, Timeout: &ten}, "sha256:17f44b0ee47a653a33e03b3240b7f46adb7bb5ba4015c0780203e0a9e711f97c"},
		{codexHook{Event: "SessionStart", Matcher: &star, Command: "true", Timeout: &ten}, "sha256:b0060e47f91e29fee353d9465d5ce06df479e0cd39f02e9285431733f3e88152"},
		// SessionEnd and Interrupt: the timeout is held to 3 s at most
		// (hooks.json: {"type": "command", "command": "true", "timeout": 10}).
		{codexHook{Event: "SessionEnd", Command: "true", Timeout: &ten}, "sha256:0408973db4c606ef0b942b13de03431201c09e7746a6fbf2d078370f1af83d68"},
		{codexHook{Event: "Interrupt", Command: "true", Timeout: &ten}, "sha256:461557090d383e4523d199ab0e90511c3fb32340392f729fc9796e6b2b485219"},
		{codexHook{Event: "PermissionRequest", Command: "true", Timeout: &ten}, "sha256:5a528eb729031805ffa59dee17c80bd28ee5ae4288105ba7a7d10a1dfcfa4633"},
		{codexHook{Event: "SubagentStop", Command: "true", Timeout: &ten}, "sha256:860b239bcb80a5cf006cb33731f84116963c7de7152b330be38127ee63169044"},
		// Codex drops a matcher on an event that takes none.
		{codexHook{Event: "Stop", Matcher: &star, Command: mew, Timeout: &ten}, "sha256:17f44b0ee47a653a33e03b3240b7f46adb7bb5ba4015c0780203e0a9e711f97c"},
	}
	for _, c := range cases {
		if got := codexHash(c.hook); got != c.want {
			t.Errorf("%s %q: %s, want %s", c.hook.Event, c.hook.Command, got, c.want)
		}
	}
	// Everything in the identity changes the hash.
	base := codexHook{Event: "PreToolUse", Command: mew, Timeout: &ten}
	eleven := int64(11)
	msg := "checking"
	for name, h := range map[string]codexHook{
		"command":        {Event: "PreToolUse", Command: mew + " ", Timeout: &ten},
		"timeout":        {Event: "PreToolUse", Command: mew, Timeout: &eleven},
		"no timeout":     {Event: "PreToolUse", Command: mew},
		"async":          {Event: "PreToolUse", Command: mew, Timeout: &ten, Async: true},
		"status message": {Event: "PreToolUse", Command: mew, Timeout: &ten, StatusMessage: &msg},
		"matcher":        {Event: "PreToolUse", Command: mew, Timeout: &ten, Matcher: &star},
		"event":          {Event: "PostToolUse", Command: mew, Timeout: &ten},
	} {
		if codexHash(h) == codexHash(base) {
			t.Errorf("%s does not change the hash", name)
		}
	}
}

func TestCodexTrustKey(t *testing.T) {
	cases := map[string]string{
		"PreToolUse": "pre_tool_use", "UserPromptSubmit": "user_prompt_submit", "Stop": "stop",
		"SessionEnd": "session_end", "Interrupt": "interrupt", "SubagentStart": "subagent_start",
	}
	for event, label := range cases {
		if got := codexTrustKey("/h/.codex/hooks.json", event, 2, 0); got != "/h/.codex/hooks.json:"+label+":2:0" {
			t.Errorf("%s: %s", event, got)
		}
	}
}

// jsonString must agree with serde_json, not encoding/json.
func TestJSONStringIsSerdes(t *testing.T) {
	cases := map[string]string{
		`a"b\c`:           `"a\"b\\c"`,
		"tab\tnl\ncr\r":   `"tab\tnl\ncr\r"`,
		"\b\f\x01\x1f":    `"\b\f\u0001\u001f"`,
		"<&>/\x7f\u2028é": "\"<&>/\x7f\u2028é\"",
	}
	for in, want := range cases {
		if got := jsonString(in); got != want {
			t.Errorf("jsonString(%q) = %s, want %s", in, got, want)
		}
	}
}
