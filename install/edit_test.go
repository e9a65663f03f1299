package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

var testWant = Want{Command: `"$HOME/.mew/bin/mew-hook"`, Events: Events, Timeout: Timeout}

func TestEditCorpus(t *testing.T) {
	for _, c := range corpus {
		t.Run(c.name, func(t *testing.T) {
			doc := []byte(c.doc)
			ed, err := Edit(doc, testWant)
			if err != nil {
				t.Fatalf("install: %v", err)
			}
			checkOnlyHooksChanged(t, doc, ed.Doc)
			checkMewEntries(t, doc, ed.Doc, testWant)
			checkLayout(t, doc, ed.Doc)

			again, err := Edit(ed.Doc, testWant)
			if err != nil {
				t.Fatalf("second install: %v", err)
			}
			if len(again.Changes) != 0 || !bytes.Equal(again.Doc, ed.Doc) {
				t.Fatalf("second install changed the file: %v\n%s", again.Changes, again.Doc)
			}

			// Structural uninstall (no record): Mew's entries go, the
			// person's hooks are what they were.
			un, err := Edit(ed.Doc, Want{DropEmptyHooks: ed.HooksAdded})
			if err != nil {
				t.Fatalf("uninstall: %v", err)
			}
			checkOnlyHooksChanged(t, ed.Doc, un.Doc)
			if got, want := personHooks(t, un.Doc), personHooks(t, doc); !reflect.DeepEqual(got, want) {
				t.Fatalf("uninstall left hooks\n%v\nwant\n%v", got, want)
			}
			if n := countMew(t, un.Doc); n != 0 {
				t.Fatalf("uninstall left %d Mew entries:\n%s", n, un.Doc)
			}
			// Taking out a "hooks" key install inserted after the last
			// member gives back the very bytes.
			if ed.HooksAdded && len(topKeys(doc)) > 0 && !bytes.Equal(un.Doc, doc) {
				t.Fatalf("uninstall after an inserted key:\n%q\nwant\n%q", un.Doc, doc)
			}
		})
	}
}

func TestEditKeepsPersonEntriesInMixedGroup(t *testing.T) {
	doc := []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"},{"type":"command","command":"MEW_HOME=\"/opt/mew\" \"/opt/mew/bin/mew-hook\""}]}]}}`)
	ed, err := Edit(doc, testWant)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]},{"hooks":[{"type":"command","command":"\"$HOME/.mew/bin/mew-hook\"","timeout":10}]}]`
	if !strings.HasPrefix(string(ed.Doc), want) {
		t.Fatalf("got\n%s\nwant prefix\n%s", ed.Doc, want)
	}
	var removed, added int
	for _, c := range ed.Changes {
		if c.Add {
			added++
		} else {
			removed++
			if c.Command != `MEW_HOME="/opt/mew" "/opt/mew/bin/mew-hook"` || c.Event != "Stop" {
				t.Fatalf("removed %+v", c)
			}
		}
	}
	if removed != 1 || added != len(Events) {
		t.Fatalf("removed %d added %d", removed, added)
	}
}

func TestEditMatcherRules(t *testing.T) {
	ed, err := Edit([]byte(`{}`), testWant)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Hooks map[string][]map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal(ed.Doc, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Hooks) != len(Events) {
		t.Fatalf("%d events registered, want %d", len(s.Hooks), len(Events))
	}
	for _, e := range Events {
		g := s.Hooks[e]
		if len(g) != 1 {
			t.Fatalf("%s: %d groups", e, len(g))
		}
		m, has := g[0]["matcher"]
		switch e {
		case "UserPromptSubmit", "Stop":
			if has {
				t.Errorf("%s has a matcher; Claude Code has none for it", e)
			}
		default:
			if m != "*" {
				t.Errorf("%s matcher = %v, want \"*\"", e, m)
			}
		}
	}
}

func TestEditRefuses(t *testing.T) {
	cases := []struct {
		doc  string
		want error
		msg  string
	}{
		{`{"a": 1,}`, ErrInvalidJSON, "line 1, column 9"},
		{"{\n  \"a\": 1\n  \"b\": 2\n}", ErrInvalidJSON, "line 3"},
		{`{"a": 1} {}`, ErrInvalidJSON, ""},
		{"\ufeff{}", ErrInvalidJSON, ""},
		{`[]`, ErrNotObject, ""},
		{`"hooks"`, ErrNotObject, ""},
		{`null`, ErrNotObject, ""},
		{`1e1000`, ErrNotObject, ""},
		{`{"hooks": []}`, ErrHooksNotObject, ""},
		{`{"hooks": null}`, ErrHooksNotObject, ""},
		{`{"hooks": "x"}`, ErrHooksNotObject, ""},
		{`{"hooks": {}, "hooks": {}}`, ErrDuplicateKey, `"hooks" appears twice`},
		{`{"hooks": {"Stop": [], "Stop": []}}`, ErrDuplicateKey, `"Stop" twice`},
		{`{"hooks": {"Stop": {}}}`, ErrEventNotList, "hooks.Stop is not a list (it is an object)"},
		{`{"hooks": {"PreToolUse": null}}`, ErrEventNotList, "null"},
		{`{"hooks": {"Stop": [{"hooks": [{"command": "a", "command": "b"}]}]}}`, ErrDuplicateKey, "hooks.Stop[0].hooks[0]"},
	}
	for _, c := range cases {
		_, err := Edit([]byte(c.doc), testWant)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: err = %v, want %v containing %q", c.doc, err, c.want, c.msg)
		}
	}
}

func TestEditUninstallOnlyTouchesMew(t *testing.T) {
	doc := []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"~/.mew/bin/my-mew-hook"},{"type":"command","command":"mew-hook --verbose"},{"type":"http","command":"/x/mew/bin/mew-hook"}]}]}}`)
	ed, err := Edit(doc, Want{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ed.Changes) != 0 || !bytes.Equal(ed.Doc, doc) {
		t.Fatalf("uninstall touched the person's hooks: %v", ed.Changes)
	}
}

func TestEditDropsHooksKeyOnlyWhenAsked(t *testing.T) {
	in := "{\n  \"a\": 1,\n  \"hooks\": {},\n  \"b\": 2\n}\n"
	ed, err := Edit([]byte(in), Want{})
	if err != nil || string(ed.Doc) != in {
		t.Fatalf("without DropEmptyHooks: %v %q", err, ed.Doc)
	}
	for _, c := range []struct{ in, want string }{
		{in, "{\n  \"a\": 1,\n  \"b\": 2\n}\n"},
		{"{\"hooks\": {}, \"b\": 2}", "{\"b\": 2}"},
		{"{\"a\": 1, \"hooks\": {}}", "{\"a\": 1}"},
		{"{\n  \"hooks\": {}\n}", "{}"},
	} {
		ed, err := Edit([]byte(c.in), Want{DropEmptyHooks: true})
		if err != nil || string(ed.Doc) != c.want || !ed.HooksRemoved {
			t.Errorf("%q: got %q (%v), want %q", c.in, ed.Doc, err, c.want)
		}
	}
}

// checkOnlyHooksChanged verifies, with a second JSON library (gjson), that
// after differs from before only in the top-level "hooks" value (or in a
// "hooks" member added or removed): every other member's bytes and every
// byte outside that member are the same.
func checkOnlyHooksChanged(t *testing.T, before, after []byte) {
	t.Helper()
	if !json.Valid(after) {
		t.Fatalf("result is not valid JSON:\n%s", after)
	}
	if len(bytes.TrimSpace(before)) == 0 {
		if keys := topKeys(after); !reflect.DeepEqual(keys, []string{`"hooks"`}) && len(keys) != 0 {
			t.Fatalf("an empty file became %v", keys)
		}
		return
	}
	bm, bh := membersExceptHooks(before)
	am, ah := membersExceptHooks(after)
	if !reflect.DeepEqual(bm, am) {
		t.Fatalf("members other than hooks changed:\n%q\n%q", bm, am)
	}
	switch {
	case bh != nil && ah != nil:
		if bh.Index != ah.Index || !bytes.Equal(before[:bh.Index], after[:ah.Index]) ||
			!bytes.Equal(before[bh.Index+len(bh.Raw):], after[ah.Index+len(ah.Raw):]) {
			t.Fatalf("bytes outside the hooks value changed:\n%q\n%q", before, after)
		}
	case bh == nil && ah != nil:
		checkInserted(t, before, after, ah)
	case bh != nil && ah == nil:
		checkInserted(t, after, before, bh)
	default:
		if !bytes.Equal(before, after) {
			t.Fatalf("no hooks before or after, yet bytes changed")
		}
	}
}

var memberSkeleton = regexp.MustCompile(`^\s*(,\s*"hooks"\s*:\s*|"hooks"\s*:\s*|\s*"hooks"\s*:\s*)$|^\s*"hooks"\s*:\s*,?\s*$`)

// checkInserted: long is short with one chunk added that is the "hooks"
// member (value h) and its separators, nothing else.
func checkInserted(t *testing.T, short, long []byte, h *gjson.Result) {
	t.Helper()
	extra := len(long) - len(short)
	for k := 0; k <= len(short); k++ {
		if !bytes.Equal(short[:k], long[:k]) {
			break
		}
		if !bytes.Equal(short[k:], long[k+extra:]) || k > h.Index || k+extra < h.Index+len(h.Raw) {
			continue
		}
		chunk := string(long[k:h.Index]) + string(long[h.Index+len(h.Raw):k+extra])
		if memberSkeleton.MatchString(chunk) || emptyObjectInsert(short, long) {
			return
		}
	}
	t.Fatalf("the change is more than a hooks member:\n%q\n%q", short, long)
}

// emptyObjectInsert allows `{ }` → `{\n  "hooks": …\n }`: into an empty
// object the member goes on its own line.
func emptyObjectInsert(short, long []byte) bool {
	s := strings.TrimSpace(string(short))
	return s == "{}" || strings.Trim(s, "{} \t\r\n") == "" && strings.HasPrefix(s, "{")
}

func topKeys(doc []byte) []string {
	var keys []string
	gjson.ParseBytes(doc).ForEach(func(k, _ gjson.Result) bool {
		keys = append(keys, k.Raw)
		return true
	})
	return keys
}

func membersExceptHooks(doc []byte) (members [][2]string, hooks *gjson.Result) {
	gjson.ParseBytes(doc).ForEach(func(k, v gjson.Result) bool {
		if k.String() == "hooks" {
			v := v
			hooks = &v
			return true
		}
		members = append(members, [2]string{k.Raw, v.Raw})
		return true
	})
	return members, hooks
}

type hookEntry struct {
	Event, Matcher, Type, Command string
	HasMatcher, CommandIsString   bool
	Timeout                       float64
	Keys                          int
}

// isMew is Mew's rule for its entries, read independently: a command hook
// (type "command" or none) whose command string IsMewCommand accepts.
func (e hookEntry) isMew() bool {
	return (e.Type == "" || e.Type == "command") && e.CommandIsString && IsMewCommand(e.Command)
}

// allEntries lists every hook entry of doc in order.
func allEntries(t *testing.T, doc []byte) []hookEntry {
	t.Helper()
	var out []hookEntry
	h := gjson.GetBytes(doc, "hooks")
	h.ForEach(func(ev, groups gjson.Result) bool {
		if !groups.IsArray() {
			return true
		}
		for _, g := range groups.Array() {
			hs := g.Get("hooks")
			if !g.IsObject() || !hs.IsArray() {
				continue
			}
			m := g.Get("matcher")
			for _, e := range hs.Array() {
				n := 0
				e.ForEach(func(_, _ gjson.Result) bool { n++; return true })
				out = append(out, hookEntry{
					Event: ev.String(), Matcher: m.String(), HasMatcher: m.Exists(),
					Type: e.Get("type").String(), Command: e.Get("command").String(),
					CommandIsString: e.Get("command").Type == gjson.String,
					Timeout:         e.Get("timeout").Float(), Keys: n,
				})
			}
		}
		return true
	})
	return out
}

func personHooks(t *testing.T, doc []byte) []hookEntry {
	var out []hookEntry
	for _, e := range allEntries(t, doc) {
		if !e.isMew() {
			out = append(out, e)
		}
	}
	return out
}

func countMew(t *testing.T, doc []byte) int {
	return len(allEntries(t, doc)) - len(personHooks(t, doc))
}

// checkMewEntries: the person's entries are all there in order, and Mew's
// entry is there exactly once per event, matching everything.
func checkMewEntries(t *testing.T, before, after []byte, want Want) {
	t.Helper()
	if got, w := personHooks(t, after), personHooks(t, before); !reflect.DeepEqual(got, w) {
		t.Fatalf("the person's hooks changed:\n%v\nwant\n%v", got, w)
	}
	seen := map[string]int{}
	for _, e := range allEntries(t, after) {
		if !e.isMew() {
			continue
		}
		seen[e.Event]++
		if e.Command != want.Command || e.Type != "command" || e.Timeout != float64(want.Timeout) || e.Keys != 3 {
			t.Errorf("%s: Mew entry %+v", e.Event, e)
		}
		if usesMatcher(e.Event) && e.Matcher != "*" && e.Matcher != "" {
			t.Errorf("%s: Mew entry under matcher %q", e.Event, e.Matcher)
		}
	}
	for _, ev := range want.Events {
		if seen[ev] != 1 {
			t.Errorf("%s: %d Mew entries, want 1", ev, seen[ev])
		}
		delete(seen, ev)
	}
	if len(seen) != 0 {
		t.Errorf("Mew entries on events it does not use: %v", seen)
	}
}

// checkLayout: the rewritten hooks value is laid out like the file.
func checkLayout(t *testing.T, before, after []byte) {
	t.Helper()
	h := gjson.GetBytes(after, "hooks")
	val := h.Raw
	switch {
	case len(bytes.TrimSpace(before)) == 0:
	case len(topKeys(before)) == 0:
		// An empty object says nothing of the style: Claude Code's own,
		// two spaces, is used.
		if !strings.Contains(val, "\n    \"SessionStart\": [\n      {") {
			t.Errorf("empty object got hooks laid out as %q", val)
		}
	case !bytes.Contains(before, []byte("\n")):
		if strings.Contains(val, "\n") {
			t.Errorf("minified file got an indented hooks value: %q", val)
		}
	case bytes.Contains(before, []byte("\r\n")):
		if strings.Count(val, "\n") != strings.Count(val, "\r\n") {
			t.Errorf("CRLF file got bare LF line ends")
		}
	case bytes.Contains(before, []byte("\n\t")):
		for _, line := range strings.Split(val, "\n")[1:] {
			if strings.HasPrefix(line, " ") {
				t.Errorf("tab-indented file got a line indented with spaces: %q", line)
			}
		}
	case bytes.Contains(before, []byte("\n    \"")) && !bytes.Contains(before, []byte("\n  \"")):
		for _, line := range strings.Split(val, "\n")[1:] {
			n := len(line) - len(strings.TrimLeft(line, " "))
			if n%4 != 0 || n == 0 {
				t.Errorf("4-space file got a line indented %d: %q", n, line)
			}
		}
	}
}
