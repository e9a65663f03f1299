package terminal

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mew-dev/mew/terminal/termid"
)

// Programs are found by absolute path, never by a bare name: an app
// started from Finder or at login gets launchd's PATH
// (/usr/bin:/bin:/usr/sbin:/sbin), where neither tmux (macOS ships none)
// nor an agent's CLI is. Mew looks in its own PATH, then in the PATH the
// person's login shell sets up (asked once, bounded), then in the places
// package managers install to.

// UsualDirs are where Homebrew (Apple silicon, Intel), MacPorts, pipx/npm
// user installs and Nix put programs; home-relative entries start with
// "~/".
var UsualDirs = []string{
	"/opt/homebrew/bin", "/usr/local/bin", "/opt/local/bin",
	"~/.local/bin", "~/.nix-profile/bin", "/run/current-system/sw/bin",
}

// loginShellTimeout bounds asking the login shell for its PATH: a slow
// profile must not hold the app's start (or `mew doctor`) longer.
const loginShellTimeout = 3 * time.Second

// Path-list bounds: what a hostile or broken profile can make Mew keep.
const (
	maxPathDirs = 256
	maxPathDir  = 1024
)

// SearchDirs is the order programs are looked for in: own PATH, then the
// login shell's, then UsualDirs (with "~/" made home-relative); each
// directory once, only absolute, clean ones.
func SearchDirs(own, login []string, home string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(d string) {
		if strings.HasPrefix(d, "~/") {
			if home == "" || !filepath.IsAbs(home) {
				return
			}
			d = filepath.Join(home, d[2:])
		}
		if !validDir(d) {
			return
		}
		d = filepath.Clean(d)
		if !seen[d] && len(out) < 3*maxPathDirs {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, list := range [][]string{own, login, UsualDirs} {
		for _, d := range list {
			add(d)
		}
	}
	return out
}

// ownDirs is the process's PATH, only its valid directories.
func ownDirs(path []string) []string {
	var out []string
	for _, d := range path {
		if validDir(d) {
			out = append(out, filepath.Clean(d))
		}
	}
	return out
}

// validDir is a directory entry Mew searches: absolute, bounded, with no
// control character (a newline from a profile's banner, an escape).
func validDir(d string) bool {
	if d == "" || len(d) > maxPathDir || !filepath.IsAbs(d) {
		return false
	}
	for _, r := range d {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// validProgramName is a name Find looks up: a plain file name.
func validProgramName(name string) bool {
	return name != "" && name != "." && name != ".." && len(name) <= 255 &&
		!strings.ContainsAny(name, "/\x00") && validDir("/"+name)
}

// Find is the first dirs/name that isExec accepts, or "".
func Find(name string, dirs []string, isExec func(string) bool) string {
	if !validProgramName(name) {
		return ""
	}
	for _, d := range dirs {
		if p := filepath.Join(d, name); isExec(p) {
			return p
		}
	}
	return ""
}

// loginEnvScript prints the PATH and TMUX_TMPDIR between marks, on one
// line, so whatever the profile itself prints (a banner, a fortune) is not
// taken for them. The mark comes in as $0. It is POSIX sh: the login
// shell itself only runs /bin/sh with it (LoginEnvCommand).
const loginEnvScript = `printf "\n%s%s%s%s%s\n" "$0" "$PATH" "$0" "$TMUX_TMPDIR" "$0"`

// LoginEnvCommand is the command line the login shell runs (`shell -l -c
// COMMAND`): /bin/sh with loginEnvScript in single quotes and the mark,
// which reads the same in sh, bash, zsh, fish and nushell (no $ or escape
// outside the quotes, none of them interprets the inside), so the
// environment the login shell set up reaches sh, whatever the shell's own
// syntax ("$1" is an error in fish and nushell). mark is letters and
// digits only.
func LoginEnvCommand(mark string) string {
	return "/bin/sh -c '" + loginEnvScript + "' " + mark
}

// LoginEnv is what Mew takes from the person's login shell.
type LoginEnv struct {
	Path []string // its PATH: valid directories only, at most maxPathDirs
	// TmuxTmpdir is its TMUX_TMPDIR ("" when unset or not a valid
	// directory): where tmux's default server has its socket.
	TmuxTmpdir string
}

// ParseLoginEnv takes the values out of what loginEnvScript printed with
// mark: the text between the last three marks, each value on one line.
func ParseLoginEnv(out, mark string) (LoginEnv, bool) {
	if mark == "" {
		return LoginEnv{}, false
	}
	var cut [3]int
	end := len(out)
	for i := 2; i >= 0; i-- {
		j := strings.LastIndex(out[:end], mark)
		if j < 0 {
			return LoginEnv{}, false
		}
		cut[i], end = j, j
	}
	path, tmp := out[cut[0]+len(mark):cut[1]], out[cut[1]+len(mark):cut[2]]
	if strings.ContainsAny(path+tmp, "\n\r\x00") {
		return LoginEnv{}, false
	}
	var env LoginEnv
	for _, d := range filepath.SplitList(path) {
		if validDir(d) && len(env.Path) < maxPathDirs {
			env.Path = append(env.Path, filepath.Clean(d))
		}
	}
	if validDir(tmp) {
		env.TmuxTmpdir = filepath.Clean(tmp)
	}
	return env, true
}

// LoginShell is the person's shell, for asking its PATH: $SHELL when it is
// an absolute path, else the system's default (zsh on macOS).
func LoginShell(shellEnv, goos string) string {
	if validDir(shellEnv) && !strings.ContainsAny(shellEnv, " ") {
		return filepath.Clean(shellEnv)
	}
	if goos == "darwin" {
		return "/bin/zsh"
	}
	return "/bin/sh"
}

// AskLoginShell asks shell, started as a login shell, for its PATH and
// TMUX_TMPDIR (`shell -l -c COMMAND`, LoginEnvCommand), within loginShellTimeout and
// with its output bounded (RunProcess). The shell gets no terminal and no
// input.
func AskLoginShell(ctx context.Context, shell string) (LoginEnv, error) {
	if !termid.ValidPath(shell) {
		return LoginEnv{}, errors.New("no usable login shell")
	}
	// Random enough to not occur in a banner by chance; the profile is the
	// person's own, and crypto/rand would cost the hook (which links this
	// package) its start-up.
	mark := "MEWENV" + strconv.FormatUint(rand.Uint64(), 36) + strconv.FormatUint(rand.Uint64(), 36)
	ctx, cancel := context.WithTimeout(ctx, loginShellTimeout)
	defer cancel()
	out, err := RunProcess(ctx, []string{shell, "-l", "-c", LoginEnvCommand(mark)}, "", nil)
	if env, ok := ParseLoginEnv(out, mark); ok && len(env.Path) > 0 {
		return env, nil
	}
	if err == nil {
		err = errors.New("the login shell printed no PATH")
	}
	return LoginEnv{}, err
}

// isExecutableFile: a regular file with an execute bit (symlinks followed,
// as Homebrew's bin entries are symlinks).
func isExecutableFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}

// programs is this process's lookup: the login shell is asked at most
// once, and only when a program is not in the process's own PATH; a path
// found is kept while it stays executable.
type programs struct {
	mu        sync.Mutex
	found     map[string]foundProgram
	loginOnce sync.Once
	asked     atomic.Bool // the login shell was asked: login is set
	login     LoginEnv
	// For tests: the environment and the login shell's answer.
	getenv   func(string) string
	askLogin func() LoginEnv
	isExec   func(string) bool
	homeDir  func() string
}

// local is this process's lookup, made on first use: no initializer, so a
// program that never looks anything up (the hook links this package)
// links none of it.
var (
	localOnce sync.Once
	localP    *programs
)

func local() *programs {
	localOnce.Do(func() {
		localP = newPrograms(os.Getenv, func() LoginEnv {
			env, _ := AskLoginShell(context.Background(), LoginShell(os.Getenv("SHELL"), runtime.GOOS))
			return env
		}, isExecutableFile, func() string { h, _ := os.UserHomeDir(); return h })
	})
	return localP
}

// foundProgram is a lookup's answer and the PATH it was made under: a
// process that changes its PATH (a test, or mew handing the search path
// on) looks again.
type foundProgram struct{ path, underPATH string }

func newPrograms(getenv func(string) string, askLogin func() LoginEnv, isExec func(string) bool, home func() string) *programs {
	return &programs{found: map[string]foundProgram{}, getenv: getenv, askLogin: askLogin, isExec: isExec, homeDir: home}
}

// ErrNotFound means a program is in none of the searched directories.
var ErrNotFound = errors.New("not found in PATH, the login shell's PATH or " + strings.Join(UsualDirs[:5], ", "))

func (p *programs) lookPath(name string) (string, error) {
	if !validProgramName(name) {
		return "", &os.PathError{Op: "lookup", Path: name, Err: errors.New("not a program name")}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	ownPATH := p.getenv("PATH")
	if f, ok := p.found[name]; ok && f.underPATH == ownPATH && p.isExec(f.path) {
		return f.path, nil
	}
	own := filepath.SplitList(ownPATH)
	home := p.homeDir()
	// Mew's own PATH alone first: in a terminal it is the person's, and
	// the login shell is not asked.
	if path := Find(name, ownDirs(own), p.isExec); path != "" {
		p.found[name] = foundProgram{path, ownPATH}
		return path, nil
	}
	p.ask()
	if path := Find(name, SearchDirs(own, p.login.Path, home), p.isExec); path != "" {
		p.found[name] = foundProgram{path, ownPATH}
		return path, nil
	}
	return "", &os.PathError{Op: "lookup", Path: name, Err: ErrNotFound}
}

func (p *programs) ask() {
	p.loginOnce.Do(func() {
		p.login = p.askLogin()
		p.asked.Store(true)
	})
}

func (p *programs) searchPath() string {
	p.ask()
	return strings.Join(SearchDirs(filepath.SplitList(p.getenv("PATH")), p.login.Path, p.homeDir()), string(filepath.ListSeparator))
}

// tmuxTmpdir is the login shell's TMUX_TMPDIR when Mew's own environment
// has none; ask: ask the login shell if it was not asked yet.
func (p *programs) tmuxTmpdir(ask bool) string {
	if p.getenv("TMUX_TMPDIR") != "" {
		return ""
	}
	if ask {
		p.ask()
	}
	if !p.asked.Load() {
		return ""
	}
	return p.login.TmuxTmpdir
}

// LookPath is the absolute path of the program name (exec.LookPath's
// signature): in Mew's PATH, else the login shell's, else UsualDirs. The
// result is kept for the process's life while it stays executable.
func LookPath(name string) (string, error) { return local().lookPath(name) }

// SearchPath is every directory LookPath searches, as a PATH value: for a
// child that itself finds programs by name (a CLI started with
// `#!/usr/bin/env node`). It asks the login shell (once).
func SearchPath() string { return local().searchPath() }

// LoginTmuxTmpdir is the TMUX_TMPDIR the person's login shell sets when
// Mew's own environment has none (an app started by launchd), else "":
// tmux's default server then has its socket there, not under /tmp. It
// asks the login shell (once).
func LoginTmuxTmpdir() string { return local().tmuxTmpdir(true) }

// KnownLoginTmuxTmpdir is LoginTmuxTmpdir when the login shell was asked
// already (a program was not in Mew's own PATH), else "": it never starts
// a shell.
func KnownLoginTmuxTmpdir() string { return local().tmuxTmpdir(false) }

// UTF8Locale is a UTF-8 locale that exists on goos, for a tool whose
// output Mew parses: launchd gives an app no LANG, and a tool without one
// prints non-ASCII text as "?" or "_".
func UTF8Locale(goos string) string {
	if goos == "darwin" {
		return "en_US.UTF-8" // on every macOS; C.UTF-8 is not on all of them
	}
	return "C.UTF-8"
}

// LocaleEnv is the environment that forces UTF8Locale for one command.
func LocaleEnv() []string {
	l := UTF8Locale(runtime.GOOS)
	return []string{"LANG=" + l, "LC_ALL=" + l}
}
