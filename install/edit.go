package install

// Editing settings.json without disturbing it.
//
// The document is validated with encoding/json and the top-level members'
// byte spans come from json.Decoder's offsets (InputOffset). Not
// tidwall/gjson+sjson: gjson does not validate (it reads broken JSON
// happily), it returns the first of two duplicate keys where Claude Code's
// JSON.parse uses the last, and sjson's insertions ignore the file's
// indentation. The decoder gives exact spans of exactly what Claude Code
// reads, so the edit is a splice: the bytes before and after the "hooks"
// value are copied through untouched.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Why Mew refuses to edit a settings document. The file is left as it is.
var (
	ErrInvalidJSON    = errors.New("not valid JSON")
	ErrNotObject      = errors.New("not a JSON object")
	ErrHooksNotObject = errors.New(`its "hooks" is not an object`)
	ErrEventNotList   = errors.New("is not a list")
	ErrDuplicateKey   = errors.New("has a key twice")
)

// Want is what Mew's part of the hooks value should be after the edit.
type Want struct {
	// Command is Mew's hook command; "" means Mew has no entries (uninstall).
	Command string
	Events  []string
	Timeout int
	// Name is the short name of Mew's entries, for agents that show it
	// instead of the command line (Gemini CLI); "" writes none.
	Name string
	// DropEmptyHooks removes the "hooks" key when it is left empty (used by
	// uninstall when install added the key).
	DropEmptyHooks bool
	// NoMatchers: Mew's groups carry no "matcher" at all (Codex; see
	// Agent.Matchers). Otherwise events that take one get "*".
	NoMatchers bool
}

// usesMatcher says whether Mew's group for event carries a matcher.
func (w Want) usesMatcher(event string) bool { return !w.NoMatchers && usesMatcher(event) }

// Change is one hook entry an edit adds or removes.
type Change struct {
	Event   string
	Add     bool
	Command string
}

func (c Change) String() string {
	if c.Add {
		return fmt.Sprintf("+ %s: %s (timeout %d s)", c.Event, c.Command, Timeout)
	}
	return fmt.Sprintf("- %s: %s", c.Event, c.Command)
}

// Edited is the result of Edit.
type Edited struct {
	Doc     []byte   // the new document (the input itself when nothing changes)
	Changes []Change // empty when nothing changes
	// HooksBefore and HooksAfter are the "hooks" values (nil when absent),
	// for showing the change.
	HooksBefore, HooksAfter []byte
	HooksAdded              bool // the document had no "hooks" key
	HooksRemoved            bool // the "hooks" key was dropped (DropEmptyHooks)
}

// Edit makes Mew's entries in the settings document doc what want says.
// Only the value of the top-level "hooks" key changes (or the key is added
// or dropped); every other byte is copied. When Mew's entries are already as
// wanted the result is doc itself. An empty document is taken as {}.
func Edit(doc []byte, want Want) (Edited, error) {
	if len(bytes.TrimLeft(doc, " \t\r\n")) == 0 {
		return editEmpty(doc, want)
	}
	if err := validate(doc); err != nil {
		return Edited{}, err
	}
	obj, err := parseObject(doc)
	if err != nil {
		return Edited{}, err
	}
	hooksAt := -1
	for i, m := range obj.members {
		if m.key == "hooks" {
			if hooksAt >= 0 {
				return Edited{}, fmt.Errorf(`%w: "hooks" appears twice`, ErrDuplicateKey)
			}
			hooksAt = i
		}
	}
	var old []byte
	if hooksAt >= 0 {
		m := obj.members[hooksAt]
		old = doc[m.val.start:m.val.end]
	}
	hooks, changes, err := editHooks(old, want)
	if err != nil {
		return Edited{}, err
	}
	drop := want.DropEmptyHooks && hooksAt >= 0 && string(hooks) == "{}"
	if len(changes) == 0 && !drop {
		return Edited{Doc: doc, HooksBefore: old, HooksAfter: old}, nil
	}
	st := detectStyle(doc, obj, hooksAt)
	res := Edited{Changes: changes, HooksBefore: old, HooksAdded: hooksAt < 0}
	var out bytes.Buffer
	switch {
	case drop:
		res.HooksRemoved = true
		res.Doc = removeMember(doc, obj, hooksAt)
		return res, nil
	case hooksAt >= 0:
		m := obj.members[hooksAt]
		res.HooksAfter = st.format(hooks)
		out.Write(doc[:m.val.start])
		out.Write(res.HooksAfter)
		out.Write(doc[m.val.end:])
	case len(obj.members) > 0:
		last := obj.members[len(obj.members)-1]
		res.HooksAfter = st.format(hooks)
		out.Write(doc[:last.val.end])
		out.Write(st.memberSep)
		out.WriteString(`"hooks"`)
		out.Write(st.kvSep)
		out.Write(res.HooksAfter)
		out.Write(doc[last.val.end:])
	default: // {} with only blanks inside
		res.HooksAfter = st.format(hooks)
		inner := doc[obj.open+1 : obj.close]
		out.Write(doc[:obj.open+1])
		out.WriteString(st.newline + st.prefix + `"hooks"`)
		out.Write(st.kvSep)
		out.Write(res.HooksAfter)
		if !bytes.Contains(inner, []byte("\n")) {
			out.WriteString(st.newline)
		}
		out.Write(doc[obj.open+1:])
	}
	res.Doc = out.Bytes()
	return res, nil
}

// editEmpty handles a document of nothing but blanks: Claude Code reads it
// as no settings, and install writes a fresh document.
func editEmpty(doc []byte, want Want) (Edited, error) {
	hooks, changes, err := editHooks(nil, want)
	if err != nil || len(changes) == 0 {
		return Edited{Doc: doc}, err
	}
	st := defaultStyle()
	after := st.format(hooks)
	out := append([]byte("{\n  \"hooks\": "), after...)
	out = append(out, "\n}\n"...)
	return Edited{Doc: out, Changes: changes, HooksAfter: after, HooksAdded: true}, nil
}

// validate checks doc is one valid JSON value; the error says where not.
func validate(doc []byte) error {
	if json.Valid(doc) {
		return nil
	}
	var v any
	err := json.Unmarshal(doc, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(doc, int(se.Offset))
		return fmt.Errorf("%w: line %d, column %d: %v", ErrInvalidJSON, line, col, se)
	}
	if err == nil { // json.Valid and Unmarshal disagree: cannot happen
		err = errors.New("rejected by the validator")
	}
	return fmt.Errorf("%w: %v", ErrInvalidJSON, err)
}

func lineCol(doc []byte, off int) (line, col int) {
	if off > len(doc) {
		off = len(doc)
	}
	before := doc[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = off - (bytes.LastIndexByte(before, '\n') + 1)
	if col < 1 {
		col = 1
	}
	return line, col
}

// span is a byte range [start, end) of a document.
type span struct{ start, end int }

type member struct {
	key    string // unescaped, as Claude Code reads it
	keyRaw []byte // as written in the file, quotes included
	keyAt  span
	val    span
}

type object struct {
	open, close int // offsets of '{' and '}'
	members     []member
}

// parseObject finds the members of the JSON object in b (valid JSON, blanks
// around it allowed) by their byte offsets.
func parseObject(b []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // a top-level 1e1000 is "not an object", not a float overflow
	tok, err := dec.Token()
	if err != nil {
		return object{}, fmt.Errorf("%w: %v", ErrInvalidJSON, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return object{}, ErrNotObject
	}
	obj := object{open: int(dec.InputOffset()) - 1}
	prevEnd := obj.open + 1
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return object{}, fmt.Errorf("%w: %v", ErrInvalidJSON, err)
		}
		key, _ := tok.(string)
		keyEnd := int(dec.InputOffset())
		// Only blanks and one comma lie between the previous value and the
		// key's opening quote, so the first quote after prevEnd is it.
		keyStart := prevEnd + bytes.IndexByte(b[prevEnd:keyEnd], '"')
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return object{}, fmt.Errorf("%w: %v", ErrInvalidJSON, err)
		}
		valEnd := int(dec.InputOffset())
		valStart := valEnd - len(raw)
		if keyStart < prevEnd || valStart < keyEnd || !bytes.Equal(b[valStart:valEnd], raw) {
			return object{}, errors.New("internal error: JSON offsets do not line up")
		}
		obj.members = append(obj.members, member{
			key: key, keyRaw: b[keyStart:keyEnd],
			keyAt: span{keyStart, keyEnd}, val: span{valStart, valEnd},
		})
		prevEnd = valEnd
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return object{}, fmt.Errorf("%w: %v", ErrInvalidJSON, err)
	}
	obj.close = int(dec.InputOffset()) - 1
	if _, err := dec.Token(); err != io.EOF {
		return object{}, fmt.Errorf("%w: more than one value", ErrInvalidJSON)
	}
	return obj, nil
}

// parseArray returns the raw elements of the JSON array b.
func parseArray(b []byte) ([][]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, fmt.Errorf("not an array")
	}
	var elems [][]byte
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		elems = append(elems, raw)
	}
	return elems, nil
}

// uniqueMembers parses b as an object whose keys are all different; where
// names b for the error.
func uniqueMembers(b []byte, where string) ([]member, error) {
	obj, err := parseObject(b)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(obj.members))
	for _, m := range obj.members {
		if seen[m.key] {
			return nil, fmt.Errorf("%w: %s has %q twice", ErrDuplicateKey, where, m.key)
		}
		seen[m.key] = true
	}
	return obj.members, nil
}

func isObject(b []byte) bool { return len(b) > 0 && b[0] == '{' }
func isArray(b []byte) bool  { return len(b) > 0 && b[0] == '[' }

// hookMember is one event of the hooks object: its key as written and its
// value (raw, whitespace as in the file until re-formatted).
type hookMember struct {
	keyRaw []byte
	value  []byte
}

// editHooks computes the new hooks value (compact JSON) from the old one
// (nil when absent). changes is empty when nothing changes.
func editHooks(old []byte, want Want) ([]byte, []Change, error) {
	var members []hookMember
	var names []string
	if old != nil {
		if !isObject(old) {
			return nil, nil, ErrHooksNotObject
		}
		ms, err := uniqueMembers(old, `"hooks"`)
		if err != nil {
			return nil, nil, err
		}
		for _, m := range ms {
			members = append(members, hookMember{keyRaw: m.keyRaw, value: old[m.val.start:m.val.end]})
			names = append(names, m.key)
		}
	}
	wanted := map[string]bool{}
	if want.Command != "" {
		for _, e := range want.Events {
			wanted[e] = true
		}
	}
	var changes []Change
	var out []hookMember
	present := map[string]bool{}
	for i, m := range members {
		event := names[i]
		present[event] = true
		v, ch, keep, err := editEvent(event, m.value, want, wanted[event])
		if err != nil {
			return nil, nil, err
		}
		changes = append(changes, ch...)
		if keep {
			out = append(out, hookMember{keyRaw: m.keyRaw, value: v})
		}
	}
	for _, event := range want.Events {
		if !wanted[event] || present[event] {
			continue
		}
		key, _ := json.Marshal(event)
		out = append(out, hookMember{keyRaw: key, value: []byte("[" + string(mewGroup(event, want)) + "]")})
		changes = append(changes, Change{Event: event, Add: true, Command: want.Command})
	}
	if len(changes) == 0 {
		if old == nil {
			return nil, nil, nil
		}
		return compact(old), nil, nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range out {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m.keyRaw)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return compact(b.Bytes()), changes, nil
}

// editEvent edits one event's list of matcher groups: it drops Mew's
// entries that are not the wanted one (and groups left empty by that), and
// adds Mew's group when the wanted entry is missing. keep is false when the
// event is left with an empty list that only Mew's entries filled.
func editEvent(event string, value []byte, want Want, wanted bool) (out []byte, changes []Change, keep bool, err error) {
	if !isArray(value) {
		if wanted {
			return nil, nil, false, fmt.Errorf("hooks.%s %w (it is %s)", event, ErrEventNotList, kindOf(value))
		}
		return value, nil, true, nil // not a list: nothing of Mew's can be in it
	}
	groups, err := parseArray(value)
	if err != nil {
		return nil, nil, false, err
	}
	have := false
	var kept [][]byte
	for gi, g := range groups {
		ng, ch, dropGroup, found, err := editGroup(event, gi, g, want, wanted && !have)
		if err != nil {
			return nil, nil, false, err
		}
		have = have || found
		changes = append(changes, ch...)
		if !dropGroup {
			kept = append(kept, ng)
		}
	}
	if wanted && !have {
		kept = append(kept, mewGroup(event, want))
		changes = append(changes, Change{Event: event, Add: true, Command: want.Command})
	}
	if len(changes) == 0 {
		return value, nil, true, nil
	}
	if len(kept) == 0 {
		return nil, changes, false, nil
	}
	return append(append([]byte("["), bytes.Join(kept, []byte(","))...), ']'), changes, true, nil
}

// editGroup removes Mew's entries from one matcher group, keeping the first
// one that is exactly the wanted entry when mayKeep. dropGroup is set when
// the group held only Mew's entries and all went.
func editGroup(event string, gi int, g []byte, want Want, mayKeep bool) (out []byte, changes []Change, dropGroup, found bool, err error) {
	if !isObject(g) {
		return g, nil, false, false, nil
	}
	where := fmt.Sprintf("hooks.%s[%d]", event, gi)
	ms, err := uniqueMembers(g, where)
	if err != nil {
		return nil, nil, false, false, err
	}
	hooksAt := -1
	matchesAll := true
	for i, m := range ms {
		v := g[m.val.start:m.val.end]
		switch m.key {
		case "hooks":
			hooksAt = i
		case "matcher":
			var s string
			if json.Unmarshal(v, &s) != nil || (s != "" && s != "*") {
				matchesAll = false
			}
		}
	}
	if hooksAt < 0 {
		return g, nil, false, false, nil
	}
	hv := g[ms[hooksAt].val.start:ms[hooksAt].val.end]
	if !isArray(hv) {
		return g, nil, false, false, nil
	}
	entries, err := parseArray(hv)
	if err != nil {
		return nil, nil, false, false, err
	}
	var kept [][]byte
	for ei, e := range entries {
		cmd, ok, err := mewCommand(e, fmt.Sprintf("%s.hooks[%d]", where, ei))
		if err != nil {
			return nil, nil, false, false, err
		}
		if !ok {
			kept = append(kept, e)
			continue
		}
		if mayKeep && !found && (matchesAll || !want.usesMatcher(event)) && isWantedEntry(e, want) {
			found = true
			kept = append(kept, e)
			continue
		}
		changes = append(changes, Change{Event: event, Command: cmd})
	}
	if len(changes) == 0 {
		return g, nil, false, found, nil
	}
	if len(kept) == 0 {
		return nil, changes, true, false, nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m.keyRaw)
		b.WriteByte(':')
		if i == hooksAt {
			b.WriteByte('[')
			b.Write(bytes.Join(kept, []byte(",")))
			b.WriteByte(']')
		} else {
			b.Write(g[m.val.start:m.val.end])
		}
	}
	b.WriteByte('}')
	return b.Bytes(), changes, false, found, nil
}

// mewCommand returns the command of a hook entry that is Mew's: an object
// whose "command" is a string IsMewCommand accepts and whose "type" is
// "command" (or absent).
func mewCommand(e []byte, where string) (string, bool, error) {
	if !isObject(e) {
		return "", false, nil
	}
	ms, err := uniqueMembers(e, where)
	if err != nil {
		return "", false, err
	}
	var cmd, typ string
	var hasCmd bool
	for _, m := range ms {
		v := e[m.val.start:m.val.end]
		switch m.key {
		case "command":
			hasCmd = json.Unmarshal(v, &cmd) == nil
		case "type":
			if json.Unmarshal(v, &typ) != nil {
				typ = "?"
			}
		}
	}
	if !hasCmd || (typ != "" && typ != "command") || !IsMewCommand(cmd) {
		return "", false, nil
	}
	return cmd, true, nil
}

// isWantedEntry says whether e is exactly the entry Mew writes.
func isWantedEntry(e []byte, want Want) bool {
	var got struct {
		Type    string  `json:"type"`
		Command string  `json:"command"`
		Timeout float64 `json:"timeout"`
		Name    string  `json:"name"`
	}
	nkeys := 3
	if want.Name != "" {
		nkeys++
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(e, &keys) != nil || len(keys) != nkeys || json.Unmarshal(e, &got) != nil {
		return false
	}
	return got.Type == "command" && got.Command == want.Command && got.Timeout == float64(want.Timeout) && got.Name == want.Name
}

// mewGroup is Mew's matcher group for event (compact JSON). Events without
// matchers get none; the others match everything.
func mewGroup(event string, want Want) []byte {
	type entry struct {
		Name    string `json:"name,omitempty"`
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
	}
	type group struct {
		Matcher *string `json:"matcher,omitempty"`
		Hooks   []entry `json:"hooks"`
	}
	g := group{Hooks: []entry{{Name: want.Name, Type: "command", Command: want.Command, Timeout: want.Timeout}}}
	if want.usesMatcher(event) {
		all := "*"
		g.Matcher = &all
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep & < > in paths readable
	if err := enc.Encode(g); err != nil {
		panic(err) // plain strings and ints always encode
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

func kindOf(v []byte) string {
	if len(v) == 0 {
		return "empty"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

func compact(b []byte) []byte {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return b
	}
	return out.Bytes()
}

// style is how the file lays out its top-level object, copied for the parts
// Mew writes.
type style struct {
	compact   bool   // no line breaks between members
	prefix    string // indentation of the line holding "hooks"
	unit      string // one level of indentation
	newline   string // "\n" or "\r\n"
	memberSep []byte // what separates two members, comma included
	kvSep     []byte // what separates a key from its value, colon included
}

func defaultStyle() style {
	return style{prefix: "  ", unit: "  ", newline: "\n", memberSep: []byte(",\n  "), kvSep: []byte(": ")}
}

// detectStyle reads the layout from the members around: the blanks before
// each key, between members and around the colons. The hooks value is
// written on several lines when the member sits on its own line (or its
// old value spanned lines), indented by the file's unit; else compactly.
func detectStyle(doc []byte, obj object, hooksAt int) style {
	st := defaultStyle()
	if len(obj.members) == 0 {
		if bytes.Contains(doc[obj.open:obj.close], []byte("\r\n")) {
			st.newline = "\r\n"
		}
		return st
	}
	m0 := obj.members[0]
	lead := doc[obj.open+1 : m0.keyAt.start]
	st.kvSep = doc[m0.keyAt.end:m0.val.start]
	if len(obj.members) > 1 {
		st.memberSep = doc[m0.val.end:obj.members[1].keyAt.start]
	} else {
		st.memberSep = append([]byte(","), lead...)
	}
	if bytes.Contains(lead, []byte("\r\n")) || bytes.Contains(st.memberSep, []byte("\r\n")) {
		st.newline = "\r\n"
	}
	// The first key that starts a line gives the indentation unit.
	st.unit = ""
	for _, m := range obj.members {
		if ind, ok := lineIndent(doc, m.keyAt.start); ok {
			st.unit = ind
			break
		}
	}
	if st.unit == "" {
		st.unit = "  " // keys at column 0 or none on its own line: still indent what is nested
	}
	if hooksAt >= 0 {
		m := obj.members[hooksAt]
		_, ownLine := lineIndent(doc, m.keyAt.start)
		st.compact = !ownLine && !bytes.Contains(doc[m.val.start:m.val.end], []byte("\n"))
		st.prefix = leadingBlanks(doc, m.keyAt.start)
	} else { // inserted after the last member, with memberSep before it
		i := bytes.LastIndexByte(st.memberSep, '\n')
		st.compact = i < 0
		last := st.memberSep[i+1:] // may hold the comma: `\n  , `
		st.prefix = string(last[:len(last)-len(bytes.TrimLeft(last, " \t"))])
	}
	return st
}

// leadingBlanks is the indentation of the line holding offset at.
func leadingBlanks(doc []byte, at int) string {
	start := bytes.LastIndexByte(doc[:at], '\n') + 1
	line := doc[start:at]
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}

// lineIndent is the indentation before offset at when only blanks stand
// between the start of its line and it.
func lineIndent(doc []byte, at int) (string, bool) {
	nl := bytes.LastIndexByte(doc[:at], '\n')
	if nl < 0 {
		return "", false
	}
	ind := doc[nl+1 : at]
	if len(bytes.Trim(ind, " \t")) != 0 {
		return "", false
	}
	return string(ind), true
}

// format lays out a compact JSON value in the file's style.
func (st style) format(v []byte) []byte {
	if st.compact {
		return compact(v)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, v, st.prefix, st.unit); err != nil {
		return v
	}
	out := b.Bytes()
	if st.newline == "\r\n" {
		// Strings in valid JSON hold no raw newlines: every \n is layout.
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	return out
}

// removeMember cuts member i out of doc with one of its separators.
func removeMember(doc []byte, obj object, i int) []byte {
	var cut span
	switch {
	case len(obj.members) == 1:
		cut = span{obj.open + 1, obj.close}
	case i == 0:
		cut = span{obj.members[0].keyAt.start, obj.members[1].keyAt.start}
	default:
		cut = span{obj.members[i-1].val.end, obj.members[i].val.end}
	}
	out := append([]byte{}, doc[:cut.start]...)
	return append(out, doc[cut.end:]...)
}

// Render shows a hooks value for people: indented, or "(none)".
func Render(hooks []byte) string {
	if hooks == nil {
		return "(none)"
	}
	var b bytes.Buffer
	if json.Indent(&b, hooks, "", "  ") != nil {
		return string(hooks)
	}
	return strings.TrimSpace(b.String())
}
