package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// FuzzSettings checks install and uninstall on arbitrary settings files.
// The first byte of the input chooses how the rest is used: as the file's
// bytes as they are (mostly invalid JSON once mutated: must be refused and
// left untouched), or as the random choices of a generator that writes a
// valid JSON object in some layout (must survive install → uninstall byte
// for byte).
func FuzzSettings(f *testing.F) {
	for _, c := range corpus {
		f.Add(append([]byte{0}, c.doc...))
	}
	for _, s := range []string{`{"a":`, `{"hooks":{"Stop":[}`, "{\"a\":1}}", `{"hooks":[]}`, `nul`, `null`, " null ", "\xff"} {
		f.Add(append([]byte{0}, s...))
	}
	for i := 0; i < 16; i++ {
		f.Add([]byte{1, byte(i), byte(i * 37), byte(i * 91), 5, 200, 17, byte(255 - i), 3, 3, 9, 42, 7, 128, byte(i), 66})
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		doc, generated := in[1:], in[0]%2 == 1
		if generated {
			doc = generate(in[1:])
			if !json.Valid(doc) {
				t.Fatalf("generator wrote invalid JSON: %q", doc)
			}
		}
		checkRoundTrip(t, doc, generated)
	})
}

func checkRoundTrip(t *testing.T, doc []byte, generated bool) {
	env := testEnv(t)
	writeSettings(t, env, string(doc), 0o644)
	blank := len(bytes.TrimLeft(doc, " \t\r\n")) == 0
	valid := blank || json.Valid(doc)

	rep, err := Install(Options{Env: env})
	if err != nil {
		if got := readFile(t, env.SettingsPath()); !bytes.Equal(got, doc) {
			t.Fatalf("refused (%v) but changed the file", err)
		}
		if exists(env.SettingsPath()+BackupSuffix) || exists(env.MewHome+"/"+recordName) {
			t.Fatalf("refused (%v) but wrote a backup or record", err)
		}
		if !valid {
			if !errors.Is(err, ErrInvalidJSON) {
				t.Fatalf("invalid JSON refused with %v", err)
			}
			return
		}
		if generated && !errors.Is(err, ErrEventNotList) {
			t.Fatalf("generated object refused: %v\n%s", err, doc)
		}
		checkRefusalJustified(t, doc, err)
		return
	}
	if !valid {
		t.Fatalf("install accepted invalid JSON %q", doc)
	}
	after := readFile(t, env.SettingsPath())
	if !rep.Wrote && !bytes.Equal(after, doc) {
		t.Fatal("report says nothing written, yet the file changed")
	}
	checkOnlyHooksChanged(t, doc, after)
	checkMewEntries(t, doc, after, mustWant(t, env))

	if rep, err := Install(Options{Env: env}); err != nil || rep.Wrote {
		t.Fatalf("second install: %v wrote=%v", err, rep.Wrote)
	}
	if again := readFile(t, env.SettingsPath()); !bytes.Equal(again, after) {
		t.Fatal("second install changed the bytes")
	}
	if _, err := Uninstall(Options{Env: env}); err != nil {
		t.Fatalf("uninstall: %v", err)
	}
	if back := readFile(t, env.SettingsPath()); !bytes.Equal(back, doc) {
		t.Fatalf("install+uninstall is not byte-exact:\n%q\n%q", doc, back)
	}
	// Without the record (MEW_HOME wiped), uninstall still takes out
	// exactly Mew's entries: the person's hooks are what they were.
	if _, err := Install(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(env.MewHome)
	if _, err := Uninstall(Options{Env: env}); err != nil {
		t.Fatalf("uninstall without record: %v", err)
	}
	back := readFile(t, env.SettingsPath())
	if countMew(t, back) != 0 || fmt.Sprint(personHooks(t, back)) != fmt.Sprint(personHooks(t, doc)) {
		t.Fatalf("uninstall without record left\n%s\nfrom\n%s", back, doc)
	}
}

// checkRefusalJustified: a valid document is refused only for a reason
// another reading of it confirms.
func checkRefusalJustified(t *testing.T, doc []byte, err error) {
	t.Helper()
	var top map[string]json.RawMessage
	// `null` unmarshals into a map without error, leaving it nil: it is
	// not an object.
	isObj := json.Unmarshal(doc, &top) == nil && top != nil
	switch {
	case errors.Is(err, ErrNotObject):
		if isObj {
			t.Fatalf("an object refused as not one: %q", doc)
		}
	case !isObj:
		t.Fatalf("a non-object refused with %v", err)
	case errors.Is(err, ErrHooksNotObject):
		var m map[string]json.RawMessage
		if json.Unmarshal(top["hooks"], &m) == nil && m != nil {
			t.Fatalf("hooks is an object, refused with %v", err)
		}
	case errors.Is(err, ErrEventNotList):
		var m map[string]json.RawMessage
		json.Unmarshal(top["hooks"], &m)
		ok := false
		for _, e := range Events {
			var list []json.RawMessage
			if v, has := m[e]; has && (json.Unmarshal(v, &list) != nil || list == nil) {
				ok = true
			}
		}
		if !ok {
			t.Fatalf("every event is a list, refused with %v", err)
		}
	case errors.Is(err, ErrDuplicateKey):
		if !strings.Contains(string(doc), "hooks") && !strings.Contains(string(doc), `\u`) {
			t.Fatalf("refused for a duplicate key with no hooks in sight: %v", err)
		}
	default:
		t.Fatalf("unexpected refusal: %v", err)
	}
}

// generate writes a valid JSON object from random choices: some layout
// (minified, 2 or 4 spaces, tabs, odd blanks, CRLF), keys in any order,
// unicode, and often a "hooks" value with the person's entries and Mew's,
// old or current, in every shape Claude Code accepts.
func generate(r []byte) []byte {
	g := &gen{r: r}
	g.style = g.pick(5)
	g.nl = "\n"
	if g.pick(6) == 0 {
		g.nl = "\r\n"
	}
	g.unit = []string{"  ", "    ", "\t", " ", ""}[g.pick(5)]
	var b strings.Builder
	b.WriteString(g.blank(true))
	// "hooks" thrice: most generated files have one.
	keys := []string{"model", "hooks", "env", "hooks", "permissions", "ключ", "hooks", "é\u00e9", "statusLine", "a\"b", "theme"}
	n := g.pick(6)
	used := map[string]bool{}
	var members []string
	for i := 0; i < n; i++ {
		k := keys[g.pick(len(keys))]
		if used[k] {
			continue
		}
		used[k] = true
		var v string
		if k == "hooks" {
			v = g.hooks(1)
		} else {
			v = g.value(1, 3)
		}
		members = append(members, g.str(k)+g.colon()+v)
	}
	b.WriteString(g.object(members, 0))
	b.WriteString(g.blank(true))
	return []byte(b.String())
}

type gen struct {
	r     []byte
	i     int
	style int // 0 minified, 1 indented, 2 odd blanks, 3 indented + odd, 4 one line with spaces
	nl    string
	unit  string
}

func (g *gen) pick(n int) int {
	if g.i >= len(g.r) || n <= 1 {
		g.i++
		return 0
	}
	v := int(g.r[g.i]) % n
	g.i++
	return v
}

func (g *gen) blank(edge bool) string {
	switch g.style {
	case 2, 3:
		return []string{"", " ", "  ", "\t", g.nl, " " + g.nl + " "}[g.pick(6)]
	case 4:
		return " "
	}
	if edge && g.pick(2) == 0 {
		return g.nl
	}
	return ""
}

func (g *gen) colon() string {
	switch g.style {
	case 0:
		return ":"
	case 1, 4:
		return ": "
	}
	return g.blank(false) + ":" + g.blank(false)
}

func (g *gen) object(members []string, depth int) string {
	return g.join("{", "}", members, depth)
}

func (g *gen) join(open, close string, items []string, depth int) string {
	if len(items) == 0 {
		return open + g.blank(false) + close
	}
	if g.style == 1 || g.style == 3 {
		in := g.nl + strings.Repeat(g.unit, depth+1)
		return open + in + strings.Join(items, ","+in) + g.nl + strings.Repeat(g.unit, depth) + close
	}
	sep := ","
	if g.style == 2 || g.style == 4 {
		sep = g.blank(false) + "," + g.blank(false)
	}
	return open + g.blank(false) + strings.Join(items, sep) + g.blank(false) + close
}

func (g *gen) str(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func (g *gen) value(depth, max int) string {
	k := g.pick(8)
	if depth >= max && k >= 6 {
		k = 0
	}
	switch k {
	case 0:
		return g.str([]string{"opus", "héllo 🐈", "a\\b\"c", "\u2028", "", "<&>", "日本"}[g.pick(7)])
	case 1:
		return []string{"0", "-1.5e3", "12345678901234567890123", "1E-7", "-0"}[g.pick(5)]
	case 2:
		return []string{"true", "false"}[g.pick(2)]
	case 3:
		return "null"
	case 4:
		return `"\u00e9\n\t\/"`
	case 5:
		return g.str(fmt.Sprint(g.pick(1000)))
	case 6:
		var items []string
		for i, n := 0, g.pick(4); i < n; i++ {
			items = append(items, g.value(depth+1, max))
		}
		return g.join("[", "]", items, depth)
	default:
		var items []string
		used := map[string]bool{}
		for i, n := 0, g.pick(4); i < n; i++ {
			k := []string{"x", "y", "hooks", "Stop", "ü"}[g.pick(5)]
			if used[k] {
				continue
			}
			used[k] = true
			items = append(items, g.str(k)+g.colon()+g.value(depth+1, max))
		}
		return g.object(items, depth)
	}
}

var genCommands = []string{
	"say done", `"$HOME/.mew/bin/mew-hook"`, "/opt/mew/bin/mew-hook", "~/bin/check",
	"mew-hook --verbose", `MEW_HOME="/x/mew" "/x/mew/bin/mew-hook"`, "echo ü >> ~/log",
}

func (g *gen) hooks(depth int) string {
	events := append([]string{"Custom", "FileChanged"}, Events...)
	used := map[string]bool{}
	var members []string
	for i, n := 0, g.pick(6); i < n; i++ {
		e := events[g.pick(len(events))]
		if used[e] {
			continue
		}
		used[e] = true
		var v string
		switch g.pick(12) {
		case 0:
			v = g.value(depth+1, 3) // any shape: refused if it is one of Mew's events
		default:
			var groups []string
			for j, m := 0, g.pick(3); j < m; j++ {
				groups = append(groups, g.group(depth+2))
			}
			v = g.join("[", "]", groups, depth+1)
		}
		members = append(members, g.str(e)+g.colon()+v)
	}
	return g.object(members, depth)
}

func (g *gen) group(depth int) string {
	var members []string
	if g.pick(2) == 0 {
		members = append(members, `"matcher":`+g.str([]string{"*", "", "Bash", "startup", "Edit|Write"}[g.pick(5)]))
	}
	var entries []string
	for i, n := 0, g.pick(3)+1; i < n; i++ {
		e := []string{`"type":"command"`, `"command":` + g.str(genCommands[g.pick(len(genCommands))])}
		if g.pick(2) == 0 {
			e = append(e, `"timeout":`+[]string{"10", "5", "60"}[g.pick(3)])
		}
		entries = append(entries, g.object(e, depth+2))
	}
	members = append(members, `"hooks":`+g.join("[", "]", entries, depth+1))
	return g.object(members, depth)
}
