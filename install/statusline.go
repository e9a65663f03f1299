package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mew-dev/mew/internal/hookcli"
	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/store"
)

// The statusline source (`mew install --statusline`, with the person's
// consent): Claude Code's "statusLine" setting becomes mew-hook
// --statusline, which runs the person's own statusline command (kept in
// $MEW_HOME/statusline-command) and records the usage figures Claude Code
// gives it. Only the value of the top-level "statusLine" key changes;
// uninstall puts the person's value back byte for byte (statusline.json in
// $MEW_HOME keeps it) or takes the key out if there was none.

// statuslineRecordName is install's memory of the statusLine it replaced.
const statuslineRecordName = "statusline.json"

// StatuslineReport says what InstallStatusline or UninstallStatusline did.
type StatuslineReport struct {
	Settings string
	Command  string // the person's own statusline command, "" for none
	Wrote    bool   // settings.json was (or, dry, would be) written
	Already  bool   // install: Mew's statusline was there already
	Restored bool   // uninstall: the person's value is back
	NotOurs  bool   // uninstall: the statusLine there is not Mew's; left alone
}

type statuslineRecord struct {
	Version int `json:"version"`
	// Had: the settings had a "statusLine" key; Value is its value's exact
	// bytes (base64), Wrote the exact bytes of Mew's.
	Had   bool   `json:"had"`
	Value []byte `json:"value,omitempty"`
	Wrote []byte `json:"wrote"`
}

// StatuslineCommand is the statusLine command Mew installs.
func StatuslineCommand(mewHome, home string) (string, error) {
	c, err := HookCommand(mewHome, home)
	if err != nil {
		return "", err
	}
	return c + " " + hookcli.StatuslineFlag, nil
}

// InstallStatusline makes Mew's command Claude Code's statusline.
func InstallStatusline(o Options) (StatuslineReport, error) {
	command, err := StatuslineCommand(o.MewHome, o.Home)
	if err != nil {
		return StatuslineReport{}, err
	}
	unlock, err := o.lock(true)
	if err != nil {
		return StatuslineReport{}, err
	}
	defer unlock()
	f, old, had, err := claudeStatusline(o.Env)
	if err != nil {
		return StatuslineReport{}, err
	}
	rep := StatuslineReport{Settings: f.path}
	if had && statuslineCommandOf(old) == command {
		rep.Already = true
		rep.Command, _ = readStatuslineCommand(o.MewHome)
		return rep, nil
	}
	person := ""
	if had {
		person = statuslineCommandOf(old)
	}
	rep.Command = person
	value := mewStatusline(old, command)
	doc, err := setTopMember(f.data, "statusLine", value)
	if err != nil {
		return rep, &FileError{Path: f.path, Err: err}
	}
	rep.Wrote = true
	if o.DryRun {
		return rep, nil
	}
	if err := f.writable(); err != nil {
		return rep, err
	}
	wroteValue, _, _ := topMember(doc, "statusLine")
	rec := statuslineRecord{Version: 1, Had: had, Value: old, Wrote: wroteValue}
	if err := saveStatuslineRecord(o.MewHome, rec, person); err != nil {
		return rep, err
	}
	return rep, writeSettingsEdit(o.MewHome, f, doc)
}

// UninstallStatusline puts the person's statusLine back.
func UninstallStatusline(o Options) (StatuslineReport, error) {
	unlock, err := o.lock(false)
	if err != nil {
		return StatuslineReport{}, err
	}
	defer unlock()
	data, err := privfile.ReadFile(filepath.Join(o.MewHome, statuslineRecordName), maxRecordFile)
	if errors.Is(err, fs.ErrNotExist) {
		return StatuslineReport{}, nil // never installed
	}
	if err != nil {
		return StatuslineReport{}, err
	}
	var rec statuslineRecord
	if err := json.Unmarshal(data, &rec); err != nil || rec.Version != 1 {
		return StatuslineReport{}, fmt.Errorf("%s is damaged; put your statusLine back by hand", filepath.Join(o.MewHome, statuslineRecordName))
	}
	f, cur, has, err := claudeStatusline(o.Env)
	if err != nil {
		return StatuslineReport{}, err
	}
	rep := StatuslineReport{Settings: f.path}
	command, _ := StatuslineCommand(o.MewHome, o.Home)
	if !has || (!bytes.Equal(cur, rec.Wrote) && statuslineCommandOf(cur) != command) {
		// The person (or another tool) set a statusLine since: theirs now.
		rep.NotOurs = has
		if !o.DryRun {
			err = removeStatuslineFiles(o.MewHome)
		}
		return rep, err
	}
	var doc []byte
	if rec.Had {
		doc, err = setTopMember(f.data, "statusLine", rec.Value)
	} else {
		doc, err = deleteTopMember(f.data, "statusLine")
	}
	if err != nil {
		return rep, &FileError{Path: f.path, Err: err}
	}
	rep.Wrote, rep.Restored = true, true
	if o.DryRun {
		return rep, nil
	}
	if err := f.writable(); err != nil {
		return rep, err
	}
	if err := writeSettingsEdit(o.MewHome, f, doc); err != nil {
		return rep, err
	}
	return rep, removeStatuslineFiles(o.MewHome)
}

// StatuslineInstalled reports whether Claude Code's statusLine is Mew's.
func StatuslineInstalled(env Env) bool {
	f, err := readSettings(Claude.Path(env))
	if err != nil {
		return false
	}
	v, ok, err := topMember(f.data, "statusLine")
	command, cerr := StatuslineCommand(env.MewHome, env.Home)
	return err == nil && cerr == nil && ok && statuslineCommandOf(v) == command
}

// writeSettingsEdit writes doc over f. When the hooks' install record says
// the file was exactly what install wrote, it still is afterwards (the
// record follows), so uninstalling the hooks still restores the person's
// bytes exactly.
func writeSettingsEdit(mewHome string, f settingsFile, doc []byte) error {
	recs, err := loadRecords(mewHome)
	if err != nil {
		return err
	}
	rec := recs.Settings[f.path]
	followed := rec != nil && f.exists && digest(f.data) == rec.Wrote
	if followed {
		rec.Wrote = digest(doc)
		if err := saveRecords(mewHome, recs); err != nil {
			return err
		}
	}
	if !f.exists {
		if _, err := mkdirAll(filepath.Dir(f.path)); err != nil {
			return &FileError{Path: f.path, Err: err}
		}
	}
	return f.commit(func(now settingsFile) ([]byte, bool, error) {
		if !bytes.Equal(now.data, f.data) {
			return nil, false, &FileError{Path: f.path, Err: errors.New("it changed while Mew was editing it; run the command again")}
		}
		return doc, false, nil
	})
}

func saveStatuslineRecord(mewHome string, rec statuslineRecord, person string) error {
	if err := os.MkdirAll(mewHome, 0o700); err != nil {
		return err
	}
	// A reinstall over Mew's own keeps the first record: it holds the
	// person's value.
	path := filepath.Join(mewHome, statuslineRecordName)
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := store.WriteFileAtomic(filepath.Join(mewHome, hookcli.StatuslineCommandFile), []byte(person), 0o600); err != nil {
		return err
	}
	return store.WriteFileAtomic(path, append(data, '\n'), 0o600)
}

func readStatuslineCommand(mewHome string) (string, error) {
	b, err := privfile.ReadFile(filepath.Join(mewHome, hookcli.StatuslineCommandFile), hookcli.MaxStatuslineCommand)
	return string(b), err
}

func removeStatuslineFiles(mewHome string) error {
	for _, name := range []string{hookcli.StatuslineCommandFile, statuslineRecordName} {
		if err := os.Remove(filepath.Join(mewHome, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// statuslineCommandOf is the command of a statusLine value ("" if none).
func statuslineCommandOf(v []byte) string {
	var s struct {
		Type    string `json:"type"`
		Command string `json:"command"`
	}
	if json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s.Command
}

// mewStatusline is the statusLine value Mew writes: the person's own
// value with only its command replaced (their padding, refreshInterval,
// hideVimModeIndicator and layout stay), or a fresh one.
func mewStatusline(old []byte, command string) []byte {
	cmd, _ := json.Marshal(command)
	if isObject(bytes.TrimSpace(old)) {
		if v, err := setTopMember(old, "command", cmd); err == nil {
			return v
		}
	}
	return []byte(`{"type": "command", "command": ` + string(cmd) + `}`)
}

// topMember is the raw value of the top-level key in doc.
// claudeStatusline reads Claude Code's settings and their "statusLine"
// value, had when there is one.
func claudeStatusline(e Env) (f settingsFile, value []byte, had bool, err error) {
	f, err = readSettings(Claude.Path(e))
	if err != nil {
		return f, nil, false, err
	}
	value, had, err = topMember(f.data, "statusLine")
	if err != nil {
		return f, nil, false, &FileError{Path: f.path, Err: err}
	}
	return f, value, had, nil
}

func topMember(doc []byte, key string) ([]byte, bool, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return nil, false, nil
	}
	if err := validate(doc); err != nil {
		return nil, false, err
	}
	obj, err := parseObject(doc)
	if err != nil {
		return nil, false, err
	}
	i, err := memberIndex(obj, key)
	if err != nil || i < 0 {
		return nil, false, err
	}
	m := obj.members[i]
	return doc[m.val.start:m.val.end], true, nil
}

func memberIndex(obj object, key string) (int, error) {
	at := -1
	for i, m := range obj.members {
		if m.key == key {
			if at >= 0 {
				return -1, fmt.Errorf("%w: %q appears twice", ErrDuplicateKey, key)
			}
			at = i
		}
	}
	return at, nil
}

// setTopMember sets key's value to value, copying every other byte; a new
// key goes last, in the document's style.
func setTopMember(doc []byte, key string, value []byte) ([]byte, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = []byte("{}\n")
	}
	if err := validate(doc); err != nil {
		return nil, err
	}
	obj, err := parseObject(doc)
	if err != nil {
		return nil, err
	}
	i, err := memberIndex(obj, key)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if i >= 0 {
		m := obj.members[i]
		out.Write(doc[:m.val.start])
		out.Write(value)
		out.Write(doc[m.val.end:])
		return out.Bytes(), nil
	}
	st := detectStyle(doc, obj, -1)
	name, _ := json.Marshal(key)
	if len(obj.members) > 0 {
		last := obj.members[len(obj.members)-1]
		out.Write(doc[:last.val.end])
		out.Write(st.memberSep)
		out.Write(name)
		out.Write(st.kvSep)
		out.Write(value)
		out.Write(doc[last.val.end:])
		return out.Bytes(), nil
	}
	out.Write(doc[:obj.open+1])
	out.WriteString(st.newline + st.prefix)
	out.Write(name)
	out.Write(st.kvSep)
	out.Write(value)
	out.WriteString(st.newline)
	out.Write(doc[obj.close:])
	return out.Bytes(), nil
}

// deleteTopMember takes key out of doc (the inverse of adding it last).
func deleteTopMember(doc []byte, key string) ([]byte, error) {
	obj, err := parseObject(doc)
	if err != nil {
		return nil, err
	}
	i, err := memberIndex(obj, key)
	if err != nil || i < 0 {
		return doc, err
	}
	return removeMember(doc, obj, i), nil
}

// checkStatusline is `mew doctor`'s word on the statusline source: only
// when it is installed (it is the person's choice, not a fault when off),
// and a warning when Mew's record of the person's statusLine is gone
// (uninstall could not give it back).
func checkStatusline(env Env, add addFunc) {
	if !StatuslineInstalled(env) {
		return
	}
	if _, err := os.Stat(filepath.Join(env.MewHome, statuslineRecordName)); err != nil {
		add(Warning, "Mew's statusline source is Claude Code's statusLine, but %s is missing: `mew uninstall` cannot give your own statusLine back", filepath.Join(env.MewHome, statuslineRecordName))
		return
	}
	if c, _ := readStatuslineCommand(env.MewHome); c != "" {
		add(OK, "Mew's statusline source records Claude Code's usage and runs your statusline command: %s", text.OneLine(c, 120))
	} else {
		add(OK, "Mew's statusline source records Claude Code's usage (you had no statusline command of your own)")
	}
}
