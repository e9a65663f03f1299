package hookbin_test

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookBinaryStaysLean guards mew-hook's start-up against the links that
// once made it slow: cgo (a dynamic loader), net/http (the top-level easyjson
// package), net (easyjson's jwriter: a default cgo build then links the
// loader) and encoding/json's reflection codec (one json.Unmarshal call
// pulled in ~0.3 MB). Each is a measurable share of a hook call.
func TestHookBinaryStaysLean(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mew-hook with symbols")
	}
	// As `make build` builds it, and as a plain `go install ./cmd/mew-hook`
	// does: cgo at the platform's default, which links a dynamic loader as
	// soon as any package (net, os/user) has a cgo variant.
	for _, b := range []struct {
		name string
		cgo  string // "" leaves CGO_ENABLED unset
	}{{"make build", "0"}, {"go install", ""}} {
		t.Run(b.name, func(t *testing.T) { checkLean(t, b.cgo) })
	}
}

func checkLean(t *testing.T, cgo string) {
	bin := filepath.Join(t.TempDir(), "mew-hook")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "github.com/mew-dev/mew/cmd/mew-hook")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CGO_ENABLED=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if cgo != "" {
		cmd.Env = append(cmd.Env, "CGO_ENABLED="+cgo)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("mew-hook is dynamically linked")
		}
	}
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	banned := []string{
		"net/http.",
		"net.",         // easyjson's own jwriter (through easyjson/buffer)
		"runtime/cgo.", // any cgo at all
		"encoding/json.(*decodeState).unmarshal",
		"encoding/json.(*encodeState).reflectValue",
	}
	found := 0
	for _, s := range syms {
		if s.Name == "github.com/mew-dev/mew/hookbin.Main" {
			found++
		}
		for _, b := range banned {
			if strings.HasPrefix(s.Name, b) {
				t.Errorf("mew-hook links %s", s.Name)
				break
			}
		}
	}
	if found != 1 {
		t.Fatalf("hookbin.Main not among %d symbols: the check reads the wrong table", len(syms))
	}
}
