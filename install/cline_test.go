package install

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runHookFile runs one of Mew's Cline hook files as Cline does: the
// payload on stdin, its stdout read as the hook's answer.
func runHookFile(t *testing.T, env Env, path, payload string) (stdout string, code int) {
	t.Helper()
	c := exec.Command(path)
	c.Env = []string{"HOME=" + env.Home, "PATH=/usr/bin:/bin"}
	c.Stdin = strings.NewReader(payload)
	var out bytes.Buffer
	c.Stdout = &out
	err := c.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), 0
}

// Mew's hook files for Cline: one executable script per event, each
// handing its payload to mew-hook --agent=cline, nothing on stdout and
// exit 0 whatever mew-hook does (also when it is not there); install again
// changes nothing; a person's own file of an event's name is never
// overwritten (and install then writes none); uninstall takes out exactly
// Mew's files; the doctor says which.
func TestClineHookFiles(t *testing.T) {
	env := testEnv(t)
	o := Options{Env: env, Agent: Cline}
	dry := o
	dry.DryRun = true
	rep, err := Install(dry)
	if err != nil || !rep.Wrote || len(rep.Also) != len(Cline.Events) {
		t.Fatalf("dry run: %+v, %v", rep, err)
	}
	if _, err := os.Stat(filepath.Join(env.Home, ".cline")); err == nil {
		t.Fatal("the dry run wrote something")
	}
	plan := PlanOf(Cline, rep)
	if len(plan) != 1 || plan[0].Kind != KindHookFiles || len(plan[0].Events) != len(Cline.Events) {
		t.Fatalf("plan %+v", plan)
	}
	if rep, err = Install(o); err != nil || !rep.Wrote || !rep.Created {
		t.Fatalf("install: %+v, %v", rep, err)
	}
	dir := filepath.Join(env.Home, ".cline", "hooks")
	for _, ev := range []string{"TaskStart", "PreToolUse", "PostToolUse", "TaskComplete", "TaskError", "TaskCancel", "SessionShutdown"} {
		fi, err := os.Stat(filepath.Join(dir, ev))
		if err != nil || fi.Mode().Perm()&0o100 == 0 {
			t.Fatalf("%s: %v, %v: want an executable file", ev, fi, err)
		}
	}
	if rep, err = Install(o); err != nil || rep.Wrote {
		t.Fatalf("install again: %+v, %v", rep, err)
	}
	if got := doctorText(env); !strings.Contains(got, "Mew's hook files for Cline CLI are installed") {
		t.Errorf("doctor after install:\n%s", got)
	}

	// No mew-hook yet: still nothing on stdout, exit 0.
	start := filepath.Join(dir, "TaskStart")
	if out, code := runHookFile(t, env, start, `{"hookName":"agent_start"}`); out != "" || code != 0 {
		t.Fatalf("without mew-hook: stdout %q, exit %d", out, code)
	}
	// A mew-hook that talks and fails: the script hides both.
	bin := filepath.Join(env.MewHome, "bin")
	os.MkdirAll(bin, 0o755)
	got := filepath.Join(env.Home, "got")
	fake := "#!/bin/sh\ncat > " + got + "\necho \"$@ $GOMAXPROCS\" >> " + got + "\necho noise\necho err >&2\nexit 3\n"
	if err := os.WriteFile(filepath.Join(bin, "mew-hook"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, code := runHookFile(t, env, start, `{"hookName":"agent_start"}`); out != "" || code != 0 {
		t.Fatalf("stdout %q, exit %d: want nothing and 0", out, code)
	}
	if b := readFile(t, got); string(b) != `{"hookName":"agent_start"}--agent=cline 1`+"\n" {
		t.Fatalf("mew-hook got %q", b)
	}

	// The person's own hook next to Mew's (another extension Cline runs
	// too) stays through uninstall; one in place of Mew's blocks install.
	own := filepath.Join(dir, "TaskStart.sh")
	os.WriteFile(own, []byte("#!/bin/sh\necho mine\n"), 0o755)
	if rep, err = Uninstall(o); err != nil || !rep.Removed || len(rep.Also) != len(Cline.Events) {
		t.Fatalf("uninstall: %+v, %v", rep, err)
	}
	if b := readFile(t, own); string(b) != "#!/bin/sh\necho mine\n" {
		t.Fatalf("the person's file changed: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("left in the hooks folder: %v, want only the person's file", entries)
	}
	if got := doctorText(env); !strings.Contains(got, "are not installed") {
		t.Errorf("doctor after uninstall:\n%s", got)
	}
	theirs := filepath.Join(dir, "TaskComplete")
	os.WriteFile(theirs, []byte("#!/bin/sh\nexit 0\n"), 0o755)
	if _, err := Install(o); err == nil || !strings.Contains(err.Error(), "Mew did not write") {
		t.Fatalf("install over the person's TaskComplete: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("install wrote some files after all: %v", entries)
	}
	if rep, err = Uninstall(o); err != nil || rep.Wrote {
		t.Fatalf("uninstall with only the person's files: %+v, %v", rep, err)
	}
	if b := readFile(t, theirs); string(b) != "#!/bin/sh\nexit 0\n" {
		t.Fatalf("uninstall changed the person's file: %q", b)
	}
}

func doctorText(env Env) string {
	var b strings.Builder
	for _, f := range Doctor(DoctorOptions{Env: env, Agents: []Agent{Cline}}) {
		b.WriteString(f.Text + "\n")
	}
	return b.String()
}
