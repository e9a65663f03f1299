package procscan

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestListFindsProcessesByName(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("sleep", "30")
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep(1):", err)
	}
	defer cmd.Process.Kill()
	start := time.Now()
	var found *Proc
	for range 50 {
		list, err := List(context.Background(), func(name string) bool { return name == "sleep" })
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range list {
			if p.Pid == cmd.Process.Pid {
				found = &list[i]
			}
		}
		if found != nil && found.Cwd != "" {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if found == nil {
		t.Fatal("sleep not listed")
	}
	real, _ := filepath.EvalSymlinks(dir)
	if !slices.Equal(found.Args, []string{"sleep", "30"}) || found.Cwd != real || found.Name != "sleep" || found.PPid <= 0 {
		t.Fatalf("%+v", found)
	}
	if d := time.UnixMilli(found.StartMs).Sub(start); d < -5*time.Second || d > 5*time.Second {
		t.Fatalf("start %v, %v from now", time.UnixMilli(found.StartMs), d)
	}
	cmd.Process.Kill()
	cmd.Wait()
	list, _ := List(context.Background(), func(name string) bool { return name == "sleep" })
	for _, p := range list {
		if p.Pid == cmd.Process.Pid {
			t.Fatal("a process that ended is still listed")
		}
	}
	if list, _ := List(context.Background(), func(string) bool { return false }); len(list) != 0 {
		t.Fatal("keep is not applied")
	}
}
