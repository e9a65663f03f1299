package screen

import "testing"

func TestNoticesAndProgress(t *testing.T) {
	cases := []struct {
		name     string
		in       []string // written in pieces, as a PTY delivers them
		asked    int
		text     string
		progress string
		state    string
	}{
		{"OSC 9 with BEL", []string{"\x1b]9;Claude needs your permission\x07"}, 1, "Claude needs your permission", "", ""},
		{"OSC 9 split across writes, ST", []string{"\x1b]9;Task fin", "ished\x1b", "\\"}, 1, "Task finished", "", ""},
		{"OSC 777 notify", []string{"\x1b]777;notify;Codex;Approve the command?\x07"}, 1, "Codex Approve the command?", "", ""},
		{"OSC 99 kitty", []string{"\x1b]99;i=1:d=1;Done\x1b\\"}, 1, "Done", "", ""},
		{"OSC 99 in parts asks once", []string{"\x1b]99;i=1:d=0;Title\x1b\\", "\x1b]99;i=1:d=1:p=body;Body\x1b\\"}, 1, "Body", "", ""},
		{"OSC 9;4 progress set", []string{"\x1b]9;4;1;40\x07"}, 0, "", ProgressWorking, ""},
		{"OSC 9;4 progress removed", []string{"\x1b]9;4;3\x07", "\x1b]9;4;0\x07"}, 0, "", ProgressNone, ""},
		{"OSC 9;4 error", []string{"\x1b]9;4;2;100\x07"}, 0, "", ProgressError, ""},
		{"ConEmu's numbered OSC 9 is no notification", []string{"\x1b]9;9;C:\\src\x07"}, 0, "", "", ""},
		{"a control character in the text is flattened", []string{"\x1b]9;a\tb\x07"}, 1, "a b", "", ""},
		{"Codex's state still reads", []string{"\x1b]7501;state=blocked:kind=permission\x07", "\x1b]9;hi\x07"}, 1, "hi", "", "blocked:kind=permission"},
		{"a title is not a notice", []string{"\x1b]0;claude\x07"}, 0, "", "", ""},
	}
	for _, c := range cases {
		var o oscScanner
		for _, p := range c.in {
			o.scan([]byte(p))
		}
		n := o.notice
		if n.Asked != c.asked || n.Text != c.text || n.Progress != c.progress || o.state != c.state {
			t.Errorf("%s: %+v state %q", c.name, n, o.state)
		}
	}
}
