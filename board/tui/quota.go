package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

// quotaCells is the width of a quota bar in the terminal.
const quotaCells = 10

// quotaLines draws the accounts' quota windows, one compact bar a line:
// "claude   5h    ███████░░░  72%  resets 14:05".
func (m *Model) quotaLines() string {
	var b strings.Builder
	for _, q := range m.quotas {
		st := m.st.state[session.Working]
		if q.Over {
			st = m.st.state[session.Waiting]
		}
		if q.Stale || q.Reset {
			st = m.st.dim
		}
		line := fmt.Sprintf("  %-16s %-5s ", q.Who(), q.Window)
		b.WriteString(m.st.dim.Styled(line))
		b.WriteString(st.Styled(q.TextBar(quotaCells)))
		b.WriteString(fmt.Sprintf(" %4s", q.PercentText()))
		if n := q.Note(time.Local); n != "" {
			b.WriteString("  " + m.st.dim.Styled(n))
		}
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// quotaAlerts says a quota passed the threshold: a bell and the line under
// the list, once (the board's policy says when).
func (m *Model) quotaAlerts(alerts []board.QuotaAlert) {
	if len(alerts) == 0 {
		return
	}
	m.status = alerts[0].Message(time.Local)
	if m.opt.Bell != nil {
		m.opt.Bell.Write([]byte("\a"))
		m.rang++
	}
}
