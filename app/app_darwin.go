//go:build darwin && cgo

// The macOS side of the app. Every file here only carries out what the
// pure code decided (controller's effects, buildMenu's items, panelRect,
// the login and notification choices). The cgo constraint: darwinkit is
// cgo, so a CGO_ENABLED=0 darwin build (mew-hook's, `GOOS=darwin go vet`)
// leaves the app out instead of failing.

package app

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/progrium/darwinkit/dispatch"
	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/macos/foundation"
	"github.com/progrium/darwinkit/objc"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/board/act"
	"github.com/mew-dev/mew/internal/alertprefs"
	"github.com/mew-dev/mew/internal/logfile"
	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/notify"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
	"github.com/mew-dev/mew/store"
	"github.com/mew-dev/mew/terminal"
)

// darwinkit rule "AppKit only on the main thread": AppKit must run on the
// process's first thread, and main() starts there only if the goroutine
// is locked to it before anything else runs (package init runs on the
// main goroutine, before main).
func init() { runtime.LockOSThread() }

// The app's Go state. Main thread only: every reader and writer runs on
// the main queue (AppKit callbacks, mainAsync tasks).
var (
	ctrl     *controller
	settings appSettings
	mewHome  string
	exePath  string // this mew, symlinks resolved
	jumper   *act.Jumper
	answers  *act.Answerer
	sessions *act.Sessions // the latest update's, what the panel shows
	// webServer is the web board, started by the menu's pairing item.
	webServer webBoard
	logger    *log.Logger
	appLog    *logfile.Log // $MEW_HOME/mew.log
	// notifyOK: UNUserNotificationCenter may be used (notificationsAvailable).
	notifyOK  bool
	notifyWhy string
	// notifyAuth is macOS's answer on notifications (notificationState).
	notifyAuth notifyAnswer
	// alertPrefs keeps the person's mutes and snoozes; notifyCh feeds the
	// sinks (notify.StartService); latestRecords are the last update's
	// records, for the focus decision off the main thread.
	alertPrefs    *alertprefs.Store
	notifyCh      chan monitor.Update
	notifyHolder  *notify.Holder
	latestRecords atomic.Pointer[[]*session.Record]
	// activity keeps App Nap off for the app's life (monitorActivity);
	// retained, never ended.
	activity objc.Object
)

// nsApp is the shared NSApplication: a singleton AppKit itself keeps.
var nsApp appkit.Application

// appDelegate stays referenced from Go for the app's life; darwinkit also
// keeps the wrapper alive (cgo handle + associated object) once set.
var appDelegate *appkit.ApplicationDelegate

// Run runs the menu-bar app until the person quits. It must be called on
// the main goroutine (cmd/mew's main), which init locked to thread 0.
// options gives the monitor's store and sources (cmd/mew wires them); it is
// called once the environment the sources read (TMUX_TMPDIR) is set.
func Run(stdout, stderr io.Writer, options func() (monitor.Options, error)) int {
	logger = log.New(stderr, "mew app: ", log.LstdFlags)
	var err error
	if mewHome, err = store.Home(); err != nil {
		fmt.Fprintf(stderr, "mew app: %v\n", err)
		return 1
	}
	// Started from Finder or at login, the app's stderr goes nowhere a
	// person can read: everything it says goes to $MEW_HOME/mew.log too
	// (Show Log, mew doctor).
	appLog = logfile.Open(logfile.PathIn(mewHome), "app")
	logger = log.New(io.MultiWriter(stderr, appLog), "", 0)
	release, ok, err := acquireInstance(mewHome)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "mew app: %v\n", err)
		return 1
	case !ok:
		fmt.Fprintln(stdout, "Mew is already running (its icon is in the menu bar).")
		return 0
	}
	defer release()
	// launchd gives the app no TMUX_TMPDIR: take the login shell's, so
	// the tmux source looks for the default server where it is. Asked
	// after the instance lock: a second launch says "already running" at
	// once, not after up to 3 s of the person's shell profile.
	if dir := terminal.LoginTmuxTmpdir(); dir != "" {
		os.Setenv("TMUX_TMPDIR", dir)
	}
	opts, err := options()
	if err != nil {
		fmt.Fprintf(stderr, "mew app: %v\n", err)
		return 1
	}
	logStart()
	if settings, err = loadSettings(mewHome); err != nil {
		logger.Printf("settings: %v (using the defaults)", err)
	}
	if exePath, err = executable(); err != nil {
		logger.Printf("cannot find this executable: %v", err)
	}
	ctrl = newController(settings.boardConfig())
	// Sessions on other machines (`mew remote add`), followed over ssh.
	hub, err := remote.ForHome(mewHome)
	if err != nil {
		logger.Printf("remotes left out: %v", err)
	} else if hub != nil {
		go hub.Run(context.Background())
		opts.Remote = hub
	}
	sessions = &act.Sessions{Remotes: func() *remote.Hub { return hub }}
	jumper = &act.Jumper{Runner: &jump.Runner{Exec: jump.CommandExec{}}, Sessions: sessions, Plan: jumpPlanner()}
	answers = &act.Answerer{Sessions: sessions, Local: act.LocalAnswer(&answer.Answerer{Home: mewHome, Rules: rules.Cached(rules.Dir(mewHome))})}

	// The sinks of `mew notify`: this app sends when no other Mew of
	// this $MEW_HOME does (the sending lock).
	alertPrefs = &alertprefs.Store{Home: mewHome}
	notifyHolder = &notify.Holder{Home: mewHome, Log: logger, Who: "the Mew app"}
	notifyHolder.Holds()
	notifyCh = notify.StartService(context.Background(), mewHome, logger, notifyHolder, sessions, frontFocus)

	// Store and registry watching (fsnotify) on its own goroutines.
	updates, err := monitor.Watch(context.Background(), opts)
	if err != nil {
		fmt.Fprintf(stderr, "mew app: %v\n", err)
		return 1
	}

	// darwinkit rule "autorelease pools off the main thread": before
	// Run() there is no event loop to drain a pool yet.
	objc.WithAutoreleasePool(func() {
		// No App Nap: it would throttle the watchers and timers of an app
		// with no window in front, and the panel would open late.
		activity = foundation.ProcessInfo_ProcessInfo().BeginActivityWithOptionsReason(
			foundation.ActivityOptions(monitorActivity), activityReason)
		objc.Retain(&activity)
		nsApp = appkit.Application_SharedApplication()
		// No Dock icon, no app menu (LSUIElement in Info.plist does the
		// same for Mew.app before this line runs).
		nsApp.SetActivationPolicy(appkit.ApplicationActivationPolicyAccessory)
		// ⌘C, ⌘A... in the message window go through the main menu.
		setupMainMenu()
		appDelegate = &appkit.ApplicationDelegate{}
		appDelegate.SetApplicationDidFinishLaunching(func(foundation.Notification) {
			startUI()
			go feedUpdates(updates)
		})
		// Mew.app opened again while it runs: show the panel (onReopen).
		appDelegate.SetApplicationShouldHandleReopenHasVisibleWindows(func(appkit.Application, bool) bool {
			apply(onReopen(ctrl, time.Now()))
			return false
		})
		// A display added, removed or rearranged: the top-right corner moved.
		appDelegate.SetApplicationDidChangeScreenParameters(func(foundation.Notification) {
			if ctrl.PanelShown() {
				placePanel()
			}
		})
		nsApp.SetDelegate(appDelegate)
	})
	nsApp.Run() // returns only if the app stops; Quit terminates the process
	return 0
}

// startUI builds the status item and the panel; main thread (the app
// delegate's didFinishLaunching).
func startUI() {
	notifyOK, notifyWhy = notificationsAvailable(exePath, foundation.Bundle_MainBundle().BundleIdentifier(), registeredBundle())
	if auth, ok := harnessBanners(); ok { // the GNUstep harness only
		notifyOK, notifyWhy, notifyAuth = true, "", auth
	}
	setupLogin()
	setupStatusItem()
	setupPanel()
	refreshNotifyAuth()
	apply(ctrl.Recheck(time.Now())) // the icon for "no sessions yet"
}

// pendingUpdate coalesces monitor updates for the main thread.
var pendingUpdate latest[monitor.Update]

// feedUpdates runs on its own goroutine: it hands each monitor update to
// the main thread, keeping at most one hand-over queued.
func feedUpdates(updates <-chan monitor.Update) {
	for u := range updates {
		sessions.Share(u.Records) // before the panel can show them
		recs := u.Records
		latestRecords.Store(&recs)
		notify.Offer(notifyCh, u)
		webServer.publish(u.Sessions)
		if pendingUpdate.Put(u) {
			mainAsync(func() {
				noteFrontApp()
				if u, ok := pendingUpdate.Take(); ok {
					logProblems(u.Errors)
					apply(ctrl.SetSessions(monitor.Values(u.Sessions), len(u.Errors), time.Now()))
				}
			})
		}
	}
}

// lastProblems is the monitor's last list of problems, logged when it
// changes (the monitor repeats it every second); main thread only.
var lastProblems string

func logProblems(errs []error) {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString(e.Error())
		b.WriteByte('\n')
	}
	if b.String() != lastProblems {
		lastProblems = b.String()
		for _, e := range errs {
			logger.Printf("skipped: %v", e)
		}
	}
}

// ringDecided rings for the alerts the person gets (board.Decide: not
// muted, not snoozed, not on the terminal in front), the same decisions
// the sinks take. The focus is asked off the main thread (an Apple Event
// to the terminal in front), then the sound and banners go from it.
func ringDecided(alerts []board.Alert) {
	now := time.Now()
	go func() {
		p, err := alertPrefs.Load()
		if err != nil {
			logger.Printf("alerts: %s: %v (mutes left out)", alertprefs.Name, err)
		}
		var recs []session.Record
		if r := latestRecords.Load(); r != nil {
			recs = monitor.Values(*r) // the update's are shared, read-only
		}
		facts := board.AlertFacts{Muted: p.Muted, Snoozed: p.Snoozed, Focused: board.FocusedSessions(recs, frontFocus(context.Background()))}
		ds := board.Decide(alerts, facts, now)
		for _, d := range ds {
			if d.Held != board.Send {
				logger.Printf("alert %s %s not rung: %s", d.ID, d.State, d.Held)
			}
		}
		if sent := board.Sent(ds); len(sent) > 0 {
			mainAsync(func() { ring(sent) })
		}
	}()
}

// mainAsync runs task on the main thread (darwinkit rule "AppKit only on
// the main thread": the only way work from a goroutine reaches AppKit).
// dispatch_async itself makes no Objective-C objects, so the calling
// goroutine needs no pool; the task gets its own, since a main-queue block
// may run outside the event loop's pool.
func mainAsync(task func()) {
	dispatch.MainQueue().DispatchAsync(func() { objc.WithAutoreleasePool(task) })
}

// apply carries out one event's effects; main thread.
func apply(e effects) {
	if e.Resize || e.Show {
		placePanel()
	}
	switch {
	case e.Show:
		showPanel()
	case e.Hide:
		hidePanel()
	}
	if e.Redraw {
		redrawPanel()
	}
	setTicking(e.Tick)
	scheduleRecheck(e.Recheck)
	if len(e.Alerts) > 0 {
		ringDecided(e.Alerts)
	}
	for _, q := range e.QuotaAlerts {
		logger.Print(q.Message(time.Local))
		playSound(board.QuotaSound)
	}
	if e.Icon != nil {
		setStatusIcon(*e.Icon)
	}
}

// jumpTo starts a jump from a click (panel or menu); main thread. The
// jump runs on the runner's goroutine, never here: AppleScript and tmux
// can take seconds.
func jumpTo(id string) {
	jumper.Submit(id, func(r jump.Result) {
		// The runner's goroutine: log here, sound on the main thread.
		logger.Print(r.Message)
		if s := jumpFeedback(r); s != "" {
			mainAsync(func() { playSound(s) })
		}
	})
}

// answerTo types a choice clicked on the panel into the session's
// terminal; main thread. The answer runs on its own goroutine (it reads
// the screen, types and watches the prompt go: up to 2 s).
func answerTo(id string, c session.Choice) {
	answers.Submit(id, c, func(r answer.Result) {
		logger.Printf("answer %s %d %q: %s", id, c.N, c.Label, r.Message)
		if s := answerFeedback(r); s != "" {
			mainAsync(func() { playSound(s) })
		}
	})
}

// logStart says in the log what this run found: the programs the app runs
// and where they came from (an app has launchd's PATH, not the person's).
func logStart() {
	logger.Printf("started: pid %d, %s", os.Getpid(), foundProgramsLine())
}

// registeredBundle is the Mew.app LaunchServices knows for bundleID, its
// symlinks resolved, or "" (notificationsAvailable).
func registeredBundle() string {
	u := appkit.Workspace_SharedWorkspace().URLForApplicationWithBundleIdentifier(bundleID)
	if u.IsNil() {
		return ""
	}
	p, err := filepath.EvalSymlinks(u.Path())
	if err != nil {
		return ""
	}
	return p
}

// quit ends the app; main thread.
func quit() {
	nsApp.Terminate(nil)
	os.Exit(0) // not reached: terminate: exits
}
