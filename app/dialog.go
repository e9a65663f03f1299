package app

// The dialogs: what the menu's commands report (command.go), how they look
// and how they are queued (notify_darwin.go shows them).

// dialog is a message for the person: what an NSAlert shows.
type dialog struct {
	Title string
	Text  string
	// Failed: shown as a warning.
	Failed bool
	// Confirm, when set, is the title of a button next to Cancel: choosing
	// it runs OnConfirm (main thread).
	Confirm   string
	OnConfirm func()
}

// alertStyle is an NSAlert's style.
type alertStyle int

const (
	alertInformational alertStyle = iota // NSAlertStyleInformational
	alertCritical                        // NSAlertStyleCritical
)

// styleOf is the alert style of a dialog: critical for a failure, so it
// does not look like the success messages.
func styleOf(d dialog) alertStyle {
	if d.Failed {
		return alertCritical
	}
	return alertInformational
}

// dialogQueue shows one dialog at a time. A modal alert runs a nested run
// loop: run inside a main-queue block, the main queue is not serviced until
// it closes (every update, sound and timer hand-over waits), so the darwin
// side never shows a dialog from a dispatched block; it queues it here and
// shows it from a run-loop callback (RunLoop performBlock:). Main thread
// only.
type dialogQueue struct {
	waiting []dialog
	showing bool
}

// Add queues d; it reports whether the caller must schedule Next (no
// dialog is up or scheduled).
func (q *dialogQueue) Add(d dialog) (schedule bool) {
	q.waiting = append(q.waiting, d)
	if q.showing {
		return false
	}
	q.showing = true
	return true
}

// Next takes the dialog to show now; ok is false when none waits (and the
// queue is idle again). Call it from the scheduled callback, and again
// after each dialog closes.
func (q *dialogQueue) Next() (d dialog, ok bool) {
	if len(q.waiting) == 0 {
		q.showing = false
		return dialog{}, false
	}
	d = q.waiting[0]
	q.waiting = q.waiting[1:]
	return d, true
}
