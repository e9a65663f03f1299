package main

import (
	"fmt"

	"github.com/mew-dev/mew/install"
	"github.com/mew-dev/mew/notify"
)

// doctorNotify reports the sinks of `mew notify`: each one's last outcome
// (a failure after the last delivery is a warning: alerts are not
// reaching the person there), and whether any Mew sends at all.
func doctorNotify(home string) []install.Finding {
	cfg, err := notify.LoadConfig(home)
	if err != nil {
		return []install.Finding{{Level: install.Warning, Text: fmt.Sprintf("notify: %v (no alerts are sent beyond the sound)", err)}}
	}
	if len(cfg.Sinks) == 0 {
		return nil
	}
	st, err := notify.LoadStatus(home)
	var out []install.Finding
	if err != nil {
		out = append(out, install.Finding{Level: install.Warning, Text: fmt.Sprintf("notify: %s: %v", notify.StatusName, err)})
	}
	for _, s := range cfg.Sinks {
		ss := st[s.Name]
		f := install.Finding{Level: install.OK, Text: fmt.Sprintf("notify %s (%s): %s", s.Name, s.Masked(), sinkHealth(ss))}
		if ss.LastError != "" && ss.ErrorAt.After(ss.LastOK) {
			f.Level = install.Warning
		}
		if ss.Dropped > 0 {
			f.Text += fmt.Sprintf("; %d alert(s) dropped (queue full or rate limit)", ss.Dropped)
		}
		out = append(out, f)
	}
	// Nobody holds the sending lock: the sinks get nothing now.
	if l, ok, err := notify.TryLock(home); err == nil && ok {
		l.Release()
		out = append(out, install.Finding{Level: install.Warning,
			Text: "notify: no Mew is running to send alerts (the app, `mew watch`, or `mew watch --headless` as a login service)"})
	}
	return out
}
