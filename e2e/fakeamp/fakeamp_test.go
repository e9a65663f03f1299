package fakeamp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// FindAmp is the real Amp CLI the e2e suite installs
// ($MEW_E2E_AMP, else the npm cache folder), "" when there is none.
func findAmp() string {
	if p := os.Getenv("MEW_E2E_AMP"); p != "" {
		return p
	}
	home, _ := os.UserHomeDir()
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	p := filepath.Join(home, ".cache", "mew-e2e", "amp-0.0.1790142911", "node_modules", "@ampcode", "cli-"+runtime.GOOS+"-"+arch, "amp")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// The real Amp in execute mode (-x) against the stand-in: a plain turn's
// reply comes back through the thread WebSocket.
func TestRealAmpExecutesAPlainTurn(t *testing.T) {
	amp := findAmp()
	if amp == "" || os.Getenv("MEW_E2E") == "" {
		t.Skip("needs MEW_E2E=1 and the Amp CLI (make amp-cli)")
	}
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, amp, "-x", "hello mew")
	cmd.Dir = home
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"AMP_URL=" + s.URL, "AMP_API_KEY=fake-key"}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Hello from the fake Amp server") {
		t.Fatalf("amp -x: %v\n%s\nserver: %v", err, out, s.Events())
	}
}
