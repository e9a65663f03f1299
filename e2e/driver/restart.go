package driver

import "time"

// RestartCodex ends the run's Codex (the TUI and its app-server daemon,
// which would otherwise keep the hooks it loaded) and starts it again in
// the same pane, CODEX_HOME and project, as a person starting Codex anew
// after an update. Started moves to the new start, so AnswerHookReview and
// WaitReady look at the new run's screens only.
func (r *Run) RestartCodex() error {
	r.killCodexDaemon()
	r.Started = time.Now()
	r.TL.Addf(r.Started, "key", "restarted codex")
	return r.Tmux.Respawn(r.Project, r.Opts.Codex, "--cd", r.Project)
}

// CodexReviewShown says whether Codex's "Hooks need review" dialog was on
// the screen since t.
func (r *Run) CodexReviewShown(since time.Time) bool {
	for _, s := range r.Screens() {
		if !s.At.Before(since) && codexReview.MatchString(s.Text) {
			return true
		}
	}
	return false
}
