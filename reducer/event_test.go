package reducer

import "testing"

func TestErrorKind(t *testing.T) {
	for raw, want := range map[string]string{
		``:                            "error",
		`null`:                        "error",
		`"rate_limit"`:                "rate_limit",
		`""`:                          "error",
		`"line\nbreak"`:               "line break",
		`{"type":"overloaded_error"}`: "overloaded_error",
		`{"kind":"auth","type":""}`:   "auth",
		`{"type":"a","kind":"b"}`:     "a",
		`{"message":"no kind here"}`:  "error",
		`42`:                          "error",
		`["rate_limit"]`:              "error",
		`{"type":`:                    "error",
	} {
		if got := errorKind([]byte(raw)); got != want {
			t.Errorf("errorKind(%s) = %q, want %q", raw, got, want)
		}
	}
}
