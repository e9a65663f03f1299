package notify

import "testing"

type tlog struct{ t *testing.T }

func (l tlog) Printf(f string, a ...any) { l.t.Logf(f, a...) }
