package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"howett.net/plist"

	"github.com/mew-dev/mew/store"
)

// bundleID is Mew.app's bundle identifier (Info.plist) and the label of
// the launchAgentJob fallback.
const bundleID = "dev.mew.Mew"

// loginState is the Launch at Login item's state.
type loginState struct {
	On bool
	// NeedsApproval: registered, but macOS waits for the person to allow
	// it in System Settings › Login Items.
	NeedsApproval bool
	// Unavailable says why the item cannot be used ("" when it can).
	Unavailable string
}

// loginBackendKind is how Mew registers itself to start at login.
type loginBackendKind int

const (
	// loginAppService is SMAppService.mainAppService (macOS 13+): the
	// system's Login Items list, and only for an app run from its bundle.
	loginAppService loginBackendKind = iota
	// loginLaunchAgent is a ~/Library/LaunchAgents plist: for a mew binary
	// run outside a bundle, or where SMAppService is missing.
	loginLaunchAgent
)

func (b loginBackendKind) String() string {
	if b == loginAppService {
		return "SMAppService"
	}
	return "LaunchAgent"
}

// chooseLoginBackend picks SMAppService when the app runs from its bundle
// and the class exists, the launchAgentJob otherwise.
func chooseLoginBackend(inBundle, appServiceAvailable bool) loginBackendKind {
	if inBundle && appServiceAvailable {
		return loginAppService
	}
	return loginLaunchAgent
}

// SMAppService.Status values (ServiceManagement/SMAppService.h).
const (
	smStatusNotRegistered    = 0
	smStatusEnabled          = 1
	smStatusRequiresApproval = 2
	smStatusNotFound         = 3
)

// loginStatusFromSM maps SMAppService's status to the menu's state.
func loginStatusFromSM(status int) loginState {
	switch status {
	case smStatusEnabled:
		return loginState{On: true}
	case smStatusRequiresApproval:
		return loginState{On: true, NeedsApproval: true}
	case smStatusNotRegistered:
		return loginState{}
	case smStatusNotFound:
		// What SMAppService reports for an app it has never registered:
		// it is off, and a click registers it. (Registering a copy macOS
		// cannot launch at login, one run from a disk image, fails then,
		// and the error says so.)
		return loginState{}
	}
	return loginState{Unavailable: "unknown status " + strconv.Itoa(status)}
}

// loginOp is what choosing Launch at Login does.
type loginOp int

const (
	loginEnable loginOp = iota
	loginDisable
	// loginOpenSettings: registered but not approved; the person approves
	// in System Settings (toggling would only register it again).
	loginOpenSettings
	loginNothing // unavailable
)

// loginToggle decides what a click on the item does.
func loginToggle(s loginState) loginOp {
	switch {
	case s.Unavailable != "":
		return loginNothing
	case s.NeedsApproval:
		return loginOpenSettings
	case s.On:
		return loginDisable
	}
	return loginEnable
}

// launchAgentJob is the login item where SMAppService cannot be used (a mew
// run outside Mew.app, or no SMAppService): a plist in
// ~/Library/LaunchAgents, loaded into the person's GUI session with
// launchctl. It opens Mew.app, never a bare mew binary: a process without
// the bundle's Info.plist has no NSAppleEventsUsageDescription, so macOS
// would refuse its jumps' Apple Events without even asking.
type launchAgentJob struct {
	Home string // the person's home directory
	UID  int    // their user id: the launchd domain is gui/<uid>
	App  string // Mew.app, absolute (findMewApp); "" when there is none
	// ServiceName is this process's $XPC_SERVICE_NAME: launchd's label
	// for a process it started as a job.
	ServiceName string
	// Run runs an argument vector (never a shell line) and returns its
	// combined output; the app passes runCommand.
	Run func(ctx context.Context, argv []string) (string, error)
}

// launchctl is launchctl's absolute path: the app's PATH may be minimal.
const launchctl = "/bin/launchctl"

// openPath is open(1): the agent launches Mew.app through LaunchServices.
const openPath = "/usr/bin/open"

// findMewApp is the Mew.app a login item should open: the bundle this mew
// runs from, else one installed in /Applications or ~/Applications (exists
// reports whether a path exists). "" when there is none.
func findMewApp(exeResolved, home string, exists func(string) bool) string {
	if b, ok := bundleOf(exeResolved); ok {
		return b
	}
	for _, dir := range []string{"/Applications", filepath.Join(home, "Applications")} {
		app := filepath.Join(dir, "Mew.app")
		if filepath.IsAbs(app) && exists(filepath.Join(app, "Contents", "MacOS", "mew")) {
			return app
		}
	}
	return ""
}

// Path is the agent's plist file.
func (a launchAgentJob) Path() string {
	return filepath.Join(a.Home, "Library", "LaunchAgents", bundleID+".plist")
}

// launchAgentPlist is the launchAgentJob's property list.
type launchAgentPlist struct {
	Label                  string   `plist:"Label"`
	ProgramArguments       []string `plist:"ProgramArguments"`
	RunAtLoad              bool     `plist:"RunAtLoad"`
	ProcessType            string   `plist:"ProcessType"`
	LimitLoadToSessionType string   `plist:"LimitLoadToSessionType"`
}

// launchAgentProgram is the command the agent runs: `open -a Mew.app`.
func launchAgentProgram(app string) []string { return []string{openPath, "-a", app} }

// makeLaunchAgentPlist is the plist that opens Mew.app at login, in the
// person's GUI (Aqua) session, once, not kept alive (Quit means quit).
func makeLaunchAgentPlist(app string) ([]byte, error) {
	if err := checkApp(app); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := plist.NewEncoderForFormat(&buf, plist.XMLFormat)
	enc.Indent("\t")
	err := enc.Encode(launchAgentPlist{
		Label:                  bundleID,
		ProgramArguments:       launchAgentProgram(app),
		RunAtLoad:              true,
		ProcessType:            "Interactive",
		LimitLoadToSessionType: "Aqua",
	})
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// checkApp refuses bundles a login item must not point at.
func checkApp(app string) error {
	switch {
	case app == "":
		return errors.New("no Mew.app was found: Launch at Login opens Mew.app (make app, or the Homebrew cask)")
	case !filepath.IsAbs(app) || filepath.Clean(app) != app:
		return fmt.Errorf("the application %q is not a clean absolute path", app)
	case strings.ContainsAny(app, "\x00\n\r"):
		return errors.New("the application's path contains a NUL or line break")
	case !strings.EqualFold(filepath.Ext(app), ".app") || len(filepath.Base(app)) <= len(".app"):
		return fmt.Errorf("%q is not an application bundle", app)
	}
	return nil
}

// Status reads the plist: on when it is Mew's and opens this Mew.app. A
// plist left by a Mew at another path counts as off (enabling replaces
// it).
func (a launchAgentJob) Status() loginState {
	if err := checkApp(a.App); err != nil {
		return loginState{Unavailable: "needs Mew.app"}
	}
	data, err := os.ReadFile(a.Path())
	if err != nil {
		return loginState{}
	}
	var p launchAgentPlist
	if _, err := plist.Unmarshal(data, &p); err != nil {
		return loginState{}
	}
	return loginState{On: p.Label == bundleID && slices.Equal(p.ProgramArguments, launchAgentProgram(a.App))}
}

func (a launchAgentJob) domain() string { return "gui/" + strconv.Itoa(a.UID) }

// LaunchctlArgv is the command that loads (bootstrap) or unloads
// (bootout) the agent's plist in the person's GUI domain.
func (a launchAgentJob) LaunchctlArgv(verb string) []string {
	return []string{launchctl, verb, a.domain(), a.Path()}
}

// launchedByAgent reports whether this process is the agent's own job:
// launchd names the job it starts in XPC_SERVICE_NAME. Unloading that job
// would stop this very Mew, so then the plist alone changes (it counts at
// the next login).
func (a launchAgentJob) launchedByAgent() bool { return a.ServiceName == bundleID }

// Enable writes the plist and loads it. Loading starts `mew app` at once
// (RunAtLoad); that second copy finds this one running and exits
// (acquireInstance). An older job of the same label is unloaded first, so
// the new plist replaces it. A failure to load is returned as a note, not
// an error: the plist on disk is what launchd reads at the next login.
func (a launchAgentJob) Enable(ctx context.Context) (note string, err error) {
	data, err := makeLaunchAgentPlist(a.App)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(a.Path()), 0o755); err != nil {
		return "", err
	}
	if err := store.WriteFileAtomic(a.Path(), data, 0o644); err != nil {
		return "", err
	}
	if a.launchedByAgent() {
		return "", nil // the job is loaded: it is this process
	}
	_, _ = a.Run(ctx, a.LaunchctlArgv("bootout")) // fails when not loaded: nothing to replace
	if out, err := a.Run(ctx, a.LaunchctlArgv("bootstrap")); err != nil {
		return fmt.Sprintf("launchctl bootstrap: %v: %s (Mew starts at the next login anyway)", err, strings.TrimSpace(out)), nil
	}
	return "", nil
}

// Disable removes the plist and unloads the job (unless it is this
// process, see launchedByAgent).
func (a launchAgentJob) Disable(ctx context.Context) error {
	if err := os.Remove(a.Path()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if !a.launchedByAgent() {
		_, _ = a.Run(ctx, a.LaunchctlArgv("bootout")) // fails when not loaded: fine
	}
	return nil
}

// translocated reports whether app is a copy macOS runs from a random
// read-only folder (App Translocation: a quarantined app opened where it
// was downloaded, ~/Downloads). A login item registered from there points
// at a path that is gone after the next restart, so it never starts.
func translocated(app string) bool {
	return strings.Contains(filepath.ToSlash(app), "/AppTranslocation/")
}

// loginUnavailableFor says why the Mew at exeResolved (symlinks resolved)
// cannot be a login item where it runs, "" when it can: the menu item
// shows it and does nothing.
func loginUnavailableFor(exeResolved string) string {
	if app, ok := bundleOf(exeResolved); ok && translocated(app) {
		return "move Mew.app to Applications and open it from there"
	}
	return ""
}
