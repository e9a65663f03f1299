package e2e

import (
	"fmt"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeapi"
)

func TestExplore(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	c, err := driver.FindClaude(driver.Version)
	if err != nil {
		t.Fatal(err)
	}
	api, _ := fakeapi.Start(fakeapi.DefaultTiming)
	defer api.Close()
	args := []string{"--permission-mode", "default"}
	if os.Getenv("EXPLORE") == "plan" {
		args = []string{"--permission-mode", "plan"}
	}
	r, err := driver.Launch(driver.Options{Claude: c, APIURL: api.URL, Dir: t.TempDir(), Args: args})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.WaitReady(45 * time.Second); err != nil {
		t.Fatal(err)
	}
	scen := map[string]string{"bash": fakeapi.Bash, "ask": fakeapi.Ask, "plan": fakeapi.Plan}[os.Getenv("SCEN")]
	sent, _ := r.Submit(fakeapi.Prompt(scen))
	re := regexp.MustCompile(os.Getenv("DIALOG"))
	snap, err := r.WaitScreen(sent, re, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("=== dialog\n" + snap.Text)
	time.Sleep(500 * time.Millisecond)
	r.Tmux.Type(os.Getenv("KEY"))
	at := time.Now()
	for i := 0; i < 12; i++ {
		time.Sleep(250 * time.Millisecond)
		s, _ := r.Tmux.Capture()
		fmt.Printf("=== +%v\n%s\n", time.Since(at).Round(time.Millisecond), s)
	}
	for _, l := range api.Log() {
		fmt.Println("api:", l.Why, l.Reply)
	}
}
