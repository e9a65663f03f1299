package proctree

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A write by a process two levels under the job changes its fingerprint
// (Qwen Code draws its screen from a grandchild of `qwen`: a watcher that
// missed its writes read its pane 2.5 s late), and nothing changes it
// while the whole tree is quiet.
func TestWritesSeesAGrandchildWrite(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "go")
	if err := exec.Command("mkfifo", fifo).Run(); err != nil {
		t.Skip("no mkfifo:", err)
	}
	ready := filepath.Join(dir, "ready")
	// job → child → grandchild; the grandchild writes a line once told,
	// then waits again. The trailing commands keep each shell from
	// exec'ing the next.
	inner := `exec 3<>` + fifo + `; touch ` + ready + `; read x <&3; echo written >/dev/null; read y <&3; true`
	cmd := exec.Command("sh", "-c", `sh -c 'sh -c "`+inner+`"; true'; true`)
	// A group of its own, killed whole: the grandchild holds the FIFO open
	// for reading and writing, so it would wait for ever after the job.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(ready); err == nil && depth(cmd.Process.Pid) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the grandchild never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	quiet, ok := Writes(cmd.Process.Pid)
	if !ok {
		t.Fatal("the job's writes cannot be read")
	}
	time.Sleep(100 * time.Millisecond)
	if again, _ := Writes(cmd.Process.Pid); again != quiet {
		t.Fatal("the fingerprint changed while nothing wrote")
	}
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.WriteString("go\n")
	for deadline = time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if now, _ := Writes(cmd.Process.Pid); now != quiet {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the grandchild's write left the job's fingerprint as it was")
		}
	}
}

// depth is how many levels of children pid has (main threads' children).
func depth(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/children")
	if err != nil {
		return 0
	}
	best := 0
	for _, f := range strings.Fields(string(b)) {
		c, _ := strconv.Atoi(f)
		best = max(best, 1+depth(c))
	}
	return best
}
