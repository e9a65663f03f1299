package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/mew-dev/mew/internal/logfile"
	"github.com/mew-dev/mew/notify"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/source/remote"
	"github.com/mew-dev/mew/store"
)

// What a bundle takes, at most: a hostile $MEW_HOME (a huge file, a FIFO,
// thousands of sessions) costs bounded time and memory.
const (
	bundleFileMax  = 256 << 10
	bundleFilesMax = 200
	bundleLogLines = 300
)

// runDoctorBundle is `mew doctor --bundle FILE`: doctor's check, and a
// tar.gz of what a bug report needs, every text redacted (redactor).
func runDoctorBundle(opt doctorOptions, args []string, stdout, stderr io.Writer) int {
	path := opt.bundle
	opt.bundle = ""
	var doc bytes.Buffer
	code := runDoctor(opt, args, io.MultiWriter(stdout, &doc), stderr)
	if code == 2 {
		return code
	}
	home, err := store.Home()
	if err != nil {
		return fail(stderr, "mew doctor", err)
	}
	userHome, _ := os.UserHomeDir()
	red := newRedactor(userHome, home)
	files := bundleFiles(home, doc.String())
	if err := writeBundle(path, files, red); err != nil {
		fmt.Fprintf(stderr, "mew doctor: the bundle: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "Wrote %s (%d files; secrets and your home folder taken out: read it before you attach it).\n", path, len(files))
	return code
}

// bundleFile is one file of the bundle, by its name in the archive.
type bundleFile struct {
	name string
	data []byte
}

func bundleFiles(home, doctor string) []bundleFile {
	out := []bundleFile{
		{"versions.txt", []byte(bundleVersions())},
		{"doctor.txt", []byte(doctor)},
	}
	if lines, err := logfile.Tail(logfile.PathIn(home), bundleLogLines); err == nil {
		out = append(out, bundleFile{"mew.log.tail", []byte(strings.Join(lines, "\n") + "\n")})
	}
	if cfg, err := notify.LoadConfig(home); err == nil && len(cfg.Sinks) > 0 {
		var b strings.Builder
		for _, s := range cfg.Sinks {
			fmt.Fprintf(&b, "%s\t%s\t%s\n", s.Name, s.Kind, s.Masked())
		}
		out = append(out, bundleFile{"notify-sinks.txt", []byte(b.String())})
	}
	out = append(out, bundleDir(rules.Dir(home), "*.toml", "rules/")...)
	out = append(out, bundleDir(store.Store{Home: home}.Dir(), "*.json", "sessions/")...)
	return out
}

// bundleVersions says which mew, on what, with which tmux.
func bundleVersions() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mew %s (feed %d)\n%s %s/%s\n", remote.BuildVersion(), remote.FeedVersion, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "tmux", "-V").Output(); err == nil {
		b.Write(out)
	}
	return b.String()
}

// bundleDir takes the regular files of dir that match pattern (never a
// symlink or a FIFO), each cut at bundleFileMax.
func bundleDir(dir, pattern, prefix string) []bundleFile {
	names, _ := filepath.Glob(filepath.Join(dir, pattern))
	sort.Strings(names)
	var out []bundleFile
	for _, n := range names {
		if len(out) == bundleFilesMax {
			break
		}
		fi, err := os.Lstat(n)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		f, err := os.OpenFile(n, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			continue
		}
		data, _ := io.ReadAll(io.LimitReader(f, bundleFileMax))
		f.Close()
		out = append(out, bundleFile{prefix + filepath.Base(n), data})
	}
	return out
}

// writeBundle writes the files, redacted, as a tar.gz only its owner can
// read (it is written beside and renamed: never half a bundle).
func writeBundle(path string, files []bundleFile, red *redactor) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".mew-bundle-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	zw := gzip.NewWriter(tmp)
	tw := tar.NewWriter(zw)
	now := time.Now()
	for _, f := range files {
		data := []byte(red.text(string(f.data)))
		hdr := &tar.Header{Name: "mew-bundle/" + f.name, Mode: 0o600, Size: int64(len(data)), ModTime: now, Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			tmp.Close()
			return err
		}
		if _, err := tw.Write(data); err != nil {
			tmp.Close()
			return err
		}
	}
	for _, c := range []io.Closer{tw, zw, tmp} {
		if err := c.Close(); err != nil {
			return err
		}
	}
	return os.Rename(tmp.Name(), path)
}

// redactor takes secrets and the person's home folder out of a text.
type redactor struct {
	homes []string
}

func newRedactor(homes ...string) *redactor {
	r := &redactor{}
	for _, h := range homes {
		if h = strings.TrimRight(h, "/"); len(h) > 1 {
			r.homes = append(r.homes, h)
		}
	}
	// The longer first: $MEW_HOME inside the home folder is said as ~/.mew.
	sort.Slice(r.homes, func(i, j int) bool { return len(r.homes[i]) > len(r.homes[j]) })
	return r
}

var secretPatterns = []struct {
	re   *regexp.Regexp
	with string
}{
	// Known token shapes: Anthropic/OpenAI keys, GitHub, Slack, AWS.
	{regexp.MustCompile(`\b(sk-[A-Za-z0-9_-]{8,}|gh[pousr]_[A-Za-z0-9]{16,}|xox[abprs]-[A-Za-z0-9-]{8,}|AKIA[0-9A-Z]{16})`), "[secret]"},
	// A URL's user:password@ and its path and query past the host (ntfy
	// topics and Slack hooks are secrets in their path).
	{regexp.MustCompile(`(https?://)[^/\s"'@]*@`), "${1}[secret]@"},
	{regexp.MustCompile(`(https?://[^/\s"'?#]+)[/?][^\s"']*`), "${1}/[path taken out]"},
	// name=value and "name": "value" where the name says it is a secret.
	{regexp.MustCompile(`(?i)((?:api[_-]?key|token|secret|password|passwd|authorization|bearer|cookie)[a-z_-]*["']?\s*[:=]\s*["']?)(?:bearer\s+)?[^\s"',}]+`), "${1}[secret]"},
	{regexp.MustCompile(`(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}`), "${1}[secret]"},
}

func (r *redactor) text(s string) string {
	for _, p := range secretPatterns {
		s = p.re.ReplaceAllString(s, p.with)
	}
	for _, h := range r.homes {
		s = strings.ReplaceAll(s, h, "~")
		// JSON writes / as is, but a path may be escaped in a quoted string.
		s = strings.ReplaceAll(s, strings.ReplaceAll(h, "/", `\/`), "~")
	}
	return s
}
