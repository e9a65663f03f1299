package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gofrs/flock"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/store"
)

// BackupSuffix names the copy of the previous bytes kept next to the
// settings file before Mew changes it.
const BackupSuffix = ".mew-bak"

// recordName is install's memory in $MEW_HOME: for each settings file it
// changed, the bytes from before and a hash of what it wrote. Uninstall
// puts the old bytes back exactly when the file is still what install
// wrote; otherwise it takes Mew's entries out and leaves the rest.
const recordName = "install.json"

// maxSettings bounds what is read of a settings file.
const maxSettings = 16 << 20

// Env says where things are.
type Env struct {
	Home      string // the person's home directory ($HOME)
	ClaudeDir string // $CLAUDE_CONFIG_DIR, or ~/.claude
	MewHome   string // $MEW_HOME, or ~/.mew
	CodexHome string // $CODEX_HOME, or ~/.codex
	// GeminiDir is Gemini CLI's settings folder: $GEMINI_CLI_HOME/.gemini,
	// or ~/.gemini.
	GeminiDir string
	// ConfigHome is $XDG_CONFIG_HOME, or ~/.config: OpenCode's and Amp's
	// configuration live under it (on macOS too).
	ConfigHome string
	// CopilotHome is $COPILOT_HOME; empty is ~/.copilot.
	CopilotHome string
	// PiDir is pi's agent folder, $PI_CODING_AGENT_DIR ("" is ~/.pi/agent).
	PiDir string
}

// EnvFromOS reads HOME, CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME,
// XDG_CONFIG_HOME, COPILOT_HOME, PI_CODING_AGENT_DIR and MEW_HOME; relative
// paths are made absolute.
func EnvFromOS() (Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Env{}, fmt.Errorf("cannot find your home directory: %w", err)
	}
	mewHome, err := store.Home()
	if err != nil {
		return Env{}, err
	}
	claude := envOr("CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
	codex := envOr("CODEX_HOME", filepath.Join(home, ".codex"))
	gemini := envOr("GEMINI_CLI_HOME", home)
	config := envOr("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	copilot := envOr("COPILOT_HOME", filepath.Join(home, ".copilot"))
	// pi reads its variable with a leading ~ as the home folder.
	pi := os.Getenv("PI_CODING_AGENT_DIR")
	if pi == "~" || strings.HasPrefix(pi, "~/") {
		pi = filepath.Join(home, pi[1:])
	}
	if pi == "" {
		pi = filepath.Join(home, ".pi", "agent")
	}
	e := Env{Home: home, ClaudeDir: claude, MewHome: mewHome, CodexHome: codex,
		GeminiDir: filepath.Join(gemini, ".gemini"), ConfigHome: config, CopilotHome: copilot, PiDir: pi}
	for _, p := range []*string{&e.Home, &e.ClaudeDir, &e.MewHome, &e.CodexHome, &e.GeminiDir, &e.ConfigHome, &e.CopilotHome, &e.PiDir} {
		if *p, err = filepath.Abs(*p); err != nil {
			return Env{}, err
		}
	}
	return e, nil
}

// envOr is the environment variable name, or def when it is unset or empty.
func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// SettingsPath is Claude Code's user settings file.
func (e Env) SettingsPath() string { return Claude.Path(e) }

// Want is what install writes into Claude Code's settings for this Env.
func (e Env) Want() (Want, error) { return Claude.Want(e) }

// Options of Install and Uninstall.
type Options struct {
	Env
	// Agent is the agent whose hooks file changes; the zero Agent is
	// Claude Code.
	Agent Agent
	// HookSource is the mew-hook binary Install copies to
	// $MEW_HOME/bin/mew-hook; "" copies nothing.
	HookSource string
	// DryRun computes the change and writes nothing.
	DryRun bool
	// Version is the installed agent's `--version` (AgentVersion): Mew
	// registers only the events it knows ("" : those every supported
	// version knows).
	Version string
}

func (o Options) agent() Agent {
	if o.Agent.Name == "" {
		return Claude
	}
	return o.Agent
}

// Report says what Install or Uninstall did (or, dry, would do).
type Report struct {
	Settings    string // the file that changes: the link's target for a symlink
	Link        string // settings.json when it is a symlink
	Changes     []Change
	HooksBefore []byte
	HooksAfter  []byte
	Wrote       bool   // the settings file was (or would be) written
	Created     bool   // it did not exist
	Backup      string // where the previous bytes were saved
	Restored    bool   // uninstall put the exact pre-install bytes back
	Removed     bool   // uninstall removed the file install had created
	Hook        string // the installed hook binary
	HookUpdated bool   // it was (or would be) copied
	// Plugin: Settings is the plugin file Mew writes whole (OpenCode, Amp),
	// not a file whose "hooks" it edits.
	Plugin bool
	// PluginNoun is what that file is to the agent ("plugin"; Copilot
	// CLI's is a "hooks file"), for messages.
	PluginNoun string
	// Also are the files Mew makes (or would) next to the plugin, so the
	// agent starts offline (OpenCode's node_modules and package-lock.json);
	// with HookFiles, Mew's hook files written (or removed).
	Also []string
	// HookFiles: Settings is the agent's hooks folder and Mew's files in it
	// are scripts of its own, one per event (Cline).
	HookFiles bool
}

// FileError is a settings file Mew would not or could not change.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string {
	return fmt.Sprintf("%s: %v; Mew changed nothing in it", e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// ErrReadOnly means the settings file has no write permission, which Mew
// takes as the person's wish that it not be changed.
var ErrReadOnly = errors.New("the file is read-only")

// Install copies the hook binary and registers it in the agent's hooks file
// (Claude Code's user settings by default). Running it again changes
// nothing.
func Install(o Options) (Report, error) {
	if o.agent().Plugin != nil {
		return installPlugin(o)
	}
	if o.agent().HookFiles {
		return installHookFiles(o)
	}
	want, err := o.agent().Want(o.Env)
	if err != nil {
		return Report{}, err
	}
	want.Events = eventsKnown(want.Events, newerEvents(o.agent()), o.Version)
	unlock, err := o.lock(true)
	if err != nil {
		return Report{}, err
	}
	defer unlock()

	f, err := readSettings(o.agent().Path(o.Env))
	if err != nil {
		return Report{}, err
	}
	ed, err := Edit(f.data, want)
	if err != nil {
		return Report{}, &FileError{Path: f.path, Err: err}
	}
	rep := f.report(ed)
	if o.HookSource != "" {
		rep.Hook, rep.HookUpdated, err = copyHook(o.HookSource, o.MewHome, o.DryRun)
		if err != nil {
			return rep, err
		}
	}
	if len(ed.Changes) == 0 || o.DryRun {
		return rep, nil
	}
	if err := f.writable(); err != nil {
		return rep, err
	}

	recs, err := loadRecords(o.MewHome)
	if err != nil {
		return rep, err
	}
	first := true
	err = f.commit(func(f settingsFile) ([]byte, bool, error) {
		if !first {
			// Another program wrote the file meanwhile: the edit is made
			// again on its bytes.
			if ed, err = Edit(f.data, want); err != nil {
				return nil, false, &FileError{Path: f.path, Err: err}
			}
			hook, updated := rep.Hook, rep.HookUpdated
			rep = f.report(ed)
			rep.Hook, rep.HookUpdated = hook, updated
		}
		first = false
		return ed.Doc, false, prepareInstall(&rep, f, ed, recs, o.MewHome)
	})
	if err != nil {
		return rep, err
	}
	rep.Wrote = true
	return rep, nil
}

// prepareInstall does what comes before install writes ed over f: the
// backup, the directories, the record of what uninstall restores.
func prepareInstall(rep *Report, f settingsFile, ed Edited, recs records, mewHome string) error {
	rec := recs.Settings[f.path]
	ours := rec != nil && f.exists && digest(f.data) == rec.Wrote
	if !ours {
		// What is there now is the person's: it is what uninstall restores.
		rec = &settingsRecord{Existed: f.exists, Before: f.data, HooksAdded: ed.HooksAdded}
	}
	if !f.exists {
		created, err := mkdirAll(filepath.Dir(f.path))
		if err != nil {
			return &FileError{Path: f.path, Err: err}
		}
		if !ours {
			rec.CreatedDirs = created
		}
	}
	// The backup keeps the person's last version; bytes that are exactly
	// Mew's own earlier output hold nothing of theirs and would only
	// overwrite it.
	if f.exists && !ours {
		rep.Backup = f.path + BackupSuffix
		if err := writeBackup(rep.Backup, f.data, f.mode); err != nil {
			return &FileError{Path: f.path, Err: fmt.Errorf("cannot save a backup: %w", err)}
		}
	}
	rec.Wrote = digest(ed.Doc)
	recs.Settings[f.path] = rec
	return saveRecords(mewHome, recs)
}

// Uninstall takes Mew's entries out of the agent's hooks file. When
// the file is still exactly what install wrote, it gets back its bytes from
// before install (or is removed, with the directories install created, if
// there was none). The hook binary stays: sessions already running still
// call it.
func Uninstall(o Options) (Report, error) {
	unlock, err := o.lock(false)
	if err != nil {
		return Report{}, err
	}
	defer unlock()
	if o.agent().Plugin != nil {
		return uninstallPlugin(o)
	}
	if o.agent().HookFiles {
		return uninstallHookFiles(o)
	}
	f, err := readSettings(o.agent().Path(o.Env))
	if err != nil {
		return Report{}, err
	}
	recs, err := loadRecords(o.MewHome)
	if err != nil {
		return Report{}, err
	}
	rec := recs.Settings[f.path]
	if !f.exists {
		if rec != nil && !o.DryRun {
			delete(recs.Settings, f.path)
			return f.report(Edited{Doc: f.data}), saveRecords(o.MewHome, recs)
		}
		return f.report(Edited{Doc: f.data}), nil
	}
	rep, out, err := planUninstall(f, rec)
	if err != nil {
		return Report{}, err
	}
	if o.DryRun {
		return rep, nil
	}
	if rep.Wrote {
		if err := f.writable(); err != nil {
			return rep, err
		}
		first := true
		err := f.commit(func(f settingsFile) ([]byte, bool, error) {
			if !first {
				// Another program wrote the file meanwhile: decide again
				// on its bytes.
				if !f.exists {
					rep = f.report(Edited{})
					return nil, true, nil // it removed the file: it stays removed
				}
				if rep, out, err = planUninstall(f, rec); err != nil {
					return nil, false, err
				}
			}
			first = false
			if rep.Wrote && !rep.Removed && !rep.Restored {
				rep.Backup = f.path + BackupSuffix
				if err := writeBackup(rep.Backup, f.data, f.mode); err != nil {
					return nil, false, &FileError{Path: f.path, Err: fmt.Errorf("cannot save a backup: %w", err)}
				}
			}
			return out, rep.Removed, nil
		})
		if err != nil {
			return rep, err
		}
		if rep.Removed {
			for i := len(rec.CreatedDirs) - 1; i >= 0; i-- {
				_ = os.Remove(rec.CreatedDirs[i]) // only if empty: anything else there stays
			}
		}
		if rep.Restored {
			dropSameBackup(f.path, out)
		}
	}
	if rec != nil {
		delete(recs.Settings, f.path)
		if err := saveRecords(o.MewHome, recs); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// dropSameBackup removes the backup install left beside path when it holds
// exactly the bytes path was just restored to: it keeps nothing the file
// does not (a backup of anything else stays).
func dropSameBackup(path string, restored []byte) {
	b := path + BackupSuffix
	fi, err := os.Lstat(b)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(restored)) {
		return
	}
	data, err := os.ReadFile(b)
	if err == nil && bytes.Equal(data, restored) {
		_ = os.Remove(b)
	}
}

// planUninstall decides what uninstall makes of the settings file f: the
// report and the bytes to write (none when the file goes).
func planUninstall(f settingsFile, rec *settingsRecord) (Report, []byte, error) {
	ours := rec != nil && digest(f.data) == rec.Wrote
	ed, err := Edit(f.data, Want{DropEmptyHooks: rec != nil && rec.HooksAdded})
	if err != nil && !ours {
		return Report{}, nil, &FileError{Path: f.path, Err: err}
	}
	rep := f.report(ed)
	switch {
	case ours && !rec.Existed && f.link == "":
		rep.Removed, rep.Wrote = true, true
		rep.HooksAfter = nil
		return rep, nil, nil
	case ours && rec.Existed:
		// The bytes there are Mew's own output (the digest says so): no
		// backup, so the person's backup from install stays.
		rep.Restored, rep.Wrote = true, !bytes.Equal(rec.Before, f.data)
		rep.HooksAfter = hooksOf(rec.Before)
		return rep, rec.Before, nil
	default: // changed since install, or installed by an older record: take Mew's entries out
		rep.Wrote = !bytes.Equal(ed.Doc, f.data)
		return rep, ed.Doc, nil
	}
}

// hooksOf is the "hooks" value of a document, nil when it has none or is
// not one Mew can read.
func hooksOf(doc []byte) []byte {
	var top map[string]json.RawMessage
	if json.Unmarshal(doc, &top) != nil {
		return nil
	}
	if h, ok := top["hooks"]; ok {
		return h
	}
	return nil
}

// lock serialises concurrent `mew install`/`uninstall` runs of one
// MEW_HOME. A dry run takes no lock and creates nothing.
func (o Options) lock(create bool) (func(), error) {
	if o.DryRun {
		return func() {}, nil
	}
	if create {
		if err := os.MkdirAll(o.MewHome, 0o700); err != nil {
			return nil, fmt.Errorf("cannot create %s: %w", o.MewHome, err)
		}
	} else if _, err := os.Stat(o.MewHome); err != nil {
		return func() {}, nil // nothing of Mew's to protect
	}
	fl := flock.New(filepath.Join(o.MewHome, "install.lock"), flock.SetPermissions(0o600))
	ok, err := fl.TryLock()
	if err != nil {
		return nil, fmt.Errorf("cannot lock %s: %w", fl.Path(), err)
	}
	if !ok {
		return nil, errors.New("another `mew install` or `mew uninstall` is running; try again when it is done")
	}
	return func() { fl.Unlock(); fl.Close() }, nil
}

// settingsFile is the settings file as read.
type settingsFile struct {
	path   string // the file itself (a symlink's final target)
	link   string // the symlink named by the settings path, if it is one
	exists bool
	data   []byte
	mode   fs.FileMode
}

func (f settingsFile) report(ed Edited) Report {
	return Report{
		Settings: f.path, Link: f.link, Changes: ed.Changes, Created: !f.exists,
		HooksBefore: ed.HooksBefore, HooksAfter: ed.HooksAfter,
		Wrote: len(ed.Changes) > 0 || ed.HooksRemoved,
	}
}

// lstatFile is os.Lstat for the readers of the agents' files: nil info and
// no error when there is no file, a FileError when it cannot be looked at.
func lstatFile(path string) (fs.FileInfo, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	return fi, nil
}

// readSettings reads the settings file at path, following a symlink to the
// file it names.
func readSettings(path string) (settingsFile, error) {
	f := settingsFile{path: path, mode: 0o600}
	li, err := lstatFile(path)
	switch {
	case err != nil || li == nil:
		return f, err
	case li.Mode()&fs.ModeSymlink != 0:
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			dest, _ := os.Readlink(path)
			return f, &FileError{Path: path, Err: fmt.Errorf("it is a symlink to %s, which cannot be followed (%v)", dest, err)}
		}
		f.link, f.path = path, target
	}
	fh, fi, err := privfile.Open(f.path, maxSettings)
	if err != nil {
		return f, &FileError{Path: f.path, Err: unwrapPath(err)}
	}
	defer fh.Close()
	f.data, err = io.ReadAll(io.LimitReader(fh, maxSettings+1))
	if err != nil {
		return f, &FileError{Path: f.path, Err: err}
	}
	f.exists, f.mode = true, fi.Mode().Perm()
	return f, nil
}

// writable refuses a file without write permission for its owner: someone
// made it read-only (or a package manager owns it), and an atomic rename
// would replace it all the same.
func (f settingsFile) writable() error {
	if f.exists && f.mode&0o200 == 0 {
		return &FileError{Path: f.path, Err: fmt.Errorf("%w (mode %04o); make it writable or add the hooks by hand (`mew install --dry-run` shows them)", ErrReadOnly, f.mode)}
	}
	return nil
}

// mkdirAll creates dir and its missing parents (0700), returning the ones
// it created, outermost first.
func mkdirAll(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	for i, j := 0, len(missing)-1; i < j; i, j = i+1, j-1 {
		missing[i], missing[j] = missing[j], missing[i]
	}
	return missing, nil
}

type records struct {
	Version  int                        `json:"version"`
	Settings map[string]*settingsRecord `json:"settings"`
}

type settingsRecord struct {
	Existed     bool     `json:"existed"`
	Before      []byte   `json:"before"` // base64: the file's bytes before install
	HooksAdded  bool     `json:"hooks_added"`
	Wrote       string   `json:"wrote_sha256"`
	CreatedDirs []string `json:"created_dirs,omitempty"`
}

func loadRecords(mewHome string) (records, error) {
	recs := records{Version: 1, Settings: map[string]*settingsRecord{}}
	data, err := privfile.ReadFile(filepath.Join(mewHome, recordName), maxRecordFile)
	if errors.Is(err, fs.ErrNotExist) {
		return recs, nil
	}
	if err != nil {
		return recs, err
	}
	if err := json.Unmarshal(data, &recs); err != nil || recs.Settings == nil {
		// A damaged record only costs the exact restore; uninstall still
		// takes Mew's entries out.
		return records{Version: 1, Settings: map[string]*settingsRecord{}}, nil
	}
	return recs, nil
}

func saveRecords(mewHome string, recs records) error {
	if err := os.MkdirAll(mewHome, 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(recs, "", "  ")
	if err != nil {
		return err
	}
	// 0600: it holds a copy of the settings, which can hold secrets.
	return store.WriteFileAtomic(filepath.Join(mewHome, recordName), append(data, '\n'), 0o600)
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// unwrapPath drops the path an *fs.PathError repeats (FileError says it).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
