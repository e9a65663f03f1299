package rules

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: any bytes as a rules file are refused with an error or give a
// set that classifies without panicking. Nothing in a file can run
// anything; patterns are RE2 (linear time).
func FuzzParse(f *testing.F) {
	entries, _ := os.ReadDir("defaults")
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join("defaults", e.Name())); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("agent = \"x\"\n[[rule]]\nstate = \"idle\"\nscreen = '(?s).*'\nlast = 3\n"))
	f.Add([]byte("agent = \"x\"\nturn_end = ['a']\n[sniff]\ncommands = ['x']\nargv = ['.']\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		set, _, err := Parse("fuzz.toml", data)
		if err != nil {
			// A refused file says each of its mistakes (joined), every
			// one a FileError naming the file and line.
			errs := []error{err}
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				errs = j.Unwrap()
			}
			for _, e := range errs {
				if _, ok := e.(*FileError); !ok {
					t.Fatalf("error of type %T: %v", e, e)
				}
			}
			return
		}
		res := set.Classify(Frame{Rows: []string{"› x", "Do you want to proceed?", "esc to interrupt"}, Title: "⠙ t", AgentState: "blocked:kind=permission"})
		if res.State == "" {
			t.Fatal("no state")
		}
	})
}
