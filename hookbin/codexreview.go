package hookbin

import (
	"bytes"
	"path/filepath"

	"github.com/mew-dev/mew/internal/privfile"
)

// maxCodexConfig bounds what is read of Codex's config.toml.
const maxCodexConfig = 256 << 10

// codexAutoReview reports whether Codex's config.toml (in codexHome) has
// its own reviewer decide approval requests first (`approvals_reviewer =
// "auto_review"` at the top level): a PermissionRequest then fires even for
// calls the reviewer approves without asking anybody (openai/codex#28833).
// A line scan, not a TOML parser: the hook stays small and fast; a profile's
// own setting is not read.
func codexAutoReview(codexHome string) bool {
	if codexHome == "" {
		return false
	}
	f, err := privfile.OpenRegular(filepath.Join(codexHome, "config.toml"))
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, maxCodexConfig)
	n, _ := f.Read(buf)
	for _, line := range bytes.Split(buf[:n], []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] == '[' {
			return false // past the top level
		}
		key, val, ok := bytes.Cut(line, []byte("="))
		if !ok || string(bytes.TrimSpace(key)) != "approvals_reviewer" {
			continue
		}
		val = bytes.TrimSpace(val)
		if i := bytes.IndexByte(val, '#'); i >= 0 {
			val = bytes.TrimSpace(val[:i])
		}
		return string(val) == `"auto_review"` || string(val) == `'auto_review'`
	}
	return false
}

// codexHome is CODEX_HOME, else ~/.codex.
func codexHome(getenv func(string) string) string {
	if h := getenv("CODEX_HOME"); h != "" {
		return h
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".codex")
	}
	return ""
}
