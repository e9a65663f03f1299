package archtest

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// MaxFileSize is the largest file the repository may hold: a recording or a
// golden screen is kilobytes; anything over a megabyte is a build output or a
// capture that belongs outside (a 10 MB binary once went in unnoticed).
const MaxFileSize = 1 << 20

// binaryMagic are the first bytes of the executables Go builds here: ELF
// (Linux) and Mach-O (macOS, 32/64-bit, either byte order, and universal).
var binaryMagic = [][]byte{
	{0x7f, 'E', 'L', 'F'},
	{0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf},
	{0xce, 0xfa, 0xed, 0xfe}, {0xcf, 0xfa, 0xed, 0xfe},
	{0xca, 0xfe, 0xba, 0xbe},
}

// fileProblem says what is wrong with one file of the repository, from its
// size and its first bytes, or "" when nothing is.
func fileProblem(name string, size int64, head []byte) string {
	if size > MaxFileSize {
		return fmt.Sprintf("%s: %d bytes, over %d: keep build outputs and large captures out of the repository", name, size, MaxFileSize)
	}
	for _, m := range binaryMagic {
		if bytes.HasPrefix(head, m) {
			return fmt.Sprintf("%s: an executable binary (magic % x): build outputs are ignored, never committed", name, m)
		}
	}
	return ""
}

// repoFiles lists the files the repository tracks (git ls-files), or, with
// no git or no repository (a source archive), every file under root but .git.
func repoFiles(root string) ([]string, error) {
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		var names []string
		for _, n := range strings.Split(string(out), "\x00") {
			if n != "" {
				names = append(names, n)
			}
		}
		return names, nil
	}
	var names []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, path)
			names = append(names, rel)
		}
		return nil
	})
	return names, err
}

func TestNoLargeFileOrBinaryInTheRepository(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	names, err := repoFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		f, err := os.Open(filepath.Join(root, name))
		if err != nil {
			continue // tracked but deleted in the work tree: not in the next commit
		}
		info, err := f.Stat()
		if err != nil || !info.Mode().IsRegular() {
			f.Close()
			continue
		}
		head := make([]byte, 4)
		n, _ := io.ReadFull(f, head)
		f.Close()
		if p := fileProblem(filepath.ToSlash(name), info.Size(), head[:n]); p != "" {
			t.Error(p)
		}
	}
}

// The check itself: a planted binary and a planted large file are caught,
// a script and an ordinary file pass.
func TestFileProblemCatchesBinariesAndLargeFiles(t *testing.T) {
	for _, c := range []struct {
		name string
		size int64
		head []byte
		bad  bool
	}{
		{"record-fixture", 4096, []byte{0x7f, 'E', 'L', 'F'}, true},
		{"mew", 4096, []byte{0xcf, 0xfa, 0xed, 0xfe}, true},
		{"universal", 4096, []byte{0xca, 0xfe, 0xba, 0xbe}, true},
		{"capture.jsonl", MaxFileSize + 1, []byte("{\"t\""), true},
		{".ci/run", 2000, []byte("#!/u"), false},
		{"session/session.go", MaxFileSize, []byte("pack"), false},
		{"empty", 0, nil, false},
	} {
		if got := fileProblem(c.name, c.size, c.head) != ""; got != c.bad {
			t.Errorf("%s: problem %v, want %v", c.name, got, c.bad)
		}
	}
}
