package main

import (
	"bufio"
	"io"
	"math/rand"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
	"github.com/mew-dev/mew/web"
)

// BenchmarkServeBoardOpen is the cost of one open web board: `mew serve`
// (the watcher and the server in one process) with 20 live sessions and 2
// state changes a second (each session changes every 10 s: a busy board),
// its CPU over a window with no browser, then with one board open (a
// paired client on the event stream fetching the rows on every event and
// each new cat picture, as the page does), then with none again. It reports
// each in % of one core, the added % (goal ≤ 0.5) and the ratio to the
// watcher alone. Only mew's CPU is counted: the browser runs on the phone.
//
//	go test ./cmd/mew -run '^$' -bench ServeBoardOpen -benchtime 1x
//
// MEW_BENCH_SERVE_SECONDS sets each window (default 30).
func BenchmarkServeBoardOpen(b *testing.B) {
	const sessions, perSecond = 20, 2
	window := 30 * time.Second
	if s, err := strconv.Atoi(os.Getenv("MEW_BENCH_SERVE_SECONDS")); err == nil && s > 0 {
		window = time.Duration(s) * time.Second
	}
	c := newCLI(b)
	st := store.Store{Home: c.home}
	ids := make([]string, sessions)
	for i := range ids {
		cmd := exec.Command("sleep", "3600")
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		p, err := proctree.Lean{}.Get(cmd.Process.Pid)
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = "serve-" + strconv.Itoa(i)
		_, err = st.Update(ids[i], time.Second, func(rec *session.Record, _ bool) bool {
			rec.Hook = &session.HookState{State: session.Working, Since: time.Now(), Cwd: "/src/p" + strconv.Itoa(i)}
			rec.Process = &session.Process{Pid: p.Pid, StartMs: p.StartMs, Name: "sleep"}
			return true
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	waiting := map[string]bool{}
	set := func(id string) {
		now := time.Now().UTC()
		waiting[id] = !waiting[id]
		_, err := st.Update(id, time.Second, func(rec *session.Record, _ bool) bool {
			rec.Hook.State, rec.Hook.Reason, rec.Hook.Since, rec.Hook.At = session.Working, "", now, now
			if waiting[id] {
				rec.Hook.State, rec.Hook.Reason = session.Waiting, session.ReasonPermission
				rec.Hook.Tool, rec.Hook.ToolDetail = "Bash", "make test"
			}
			return true
		})
		if err != nil {
			b.Fatal(err)
		}
	}

	srv := exec.Command(c.mew, "serve", "--listen", "127.0.0.1:0")
	srv.Env = c.env
	stderr, err := srv.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Process.Signal(syscall.SIGTERM); srv.Wait() })
	sc := bufio.NewScanner(stderr)
	base := ""
	for base == "" && sc.Scan() {
		if m := regexp.MustCompile(`^Mew's web board: (\S+)/$`).FindStringSubmatch(sc.Text()); m != nil {
			base = m[1]
		}
	}
	if base == "" {
		b.Fatal("mew serve did not say where it serves")
	}
	go io.Copy(io.Discard, stderr)
	_, token, err := (&web.Devices{Home: c.home}).Add("bench", time.Now())
	if err != nil {
		b.Fatal(err)
	}
	get := func(path string) (*http.Response, error) {
		req, _ := http.NewRequest("GET", base+path, nil)
		req.Header.Set("Cookie", web.CookieName+"="+token)
		return http.DefaultClient.Do(req)
	}
	time.Sleep(2 * time.Second) // start-up settles

	rng := rand.New(rand.NewSource(1))
	measure := func() float64 {
		before := cpuNanos(b, srv.Process.Pid)
		tick := time.NewTicker(time.Second / perSecond)
		for end := time.Now().Add(window); time.Now().Before(end); {
			<-tick.C
			set(ids[rng.Intn(sessions)])
		}
		tick.Stop()
		return float64(cpuNanos(b, srv.Process.Pid)-before) / float64(window.Nanoseconds()) * 100
	}
	// page is one open board: the event stream, the rows on each event,
	// each cat picture once (the browser caches them).
	page := func(stop chan struct{}) (events, fetches *int) {
		events, fetches = new(int), new(int)
		resp, err := get("/events")
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("/events: %v %v", err, resp)
		}
		go func() { <-stop; resp.Body.Close() }()
		seen := map[string]bool{}
		img := regexp.MustCompile(`src="(/cat\?[^"]+)"`)
		go func() {
			r := bufio.NewScanner(resp.Body)
			for r.Scan() {
				if !strings.HasPrefix(r.Text(), "event: change") {
					continue
				}
				*events++
				rows, err := get("/rows")
				if err != nil {
					return
				}
				body, _ := io.ReadAll(rows.Body)
				rows.Body.Close()
				*fetches++
				for _, m := range img.FindAllStringSubmatch(string(body), -1) {
					u := strings.ReplaceAll(m[1], "&amp;", "&")
					if !seen[u] {
						seen[u] = true
						if r, err := get(u); err == nil {
							io.Copy(io.Discard, r.Body)
							r.Body.Close()
							*fetches++
						}
					}
				}
			}
		}()
		return events, fetches
	}
	b.ResetTimer()
	for range b.N {
		alone := measure()
		stop := make(chan struct{})
		events, fetches := page(stop)
		open := measure()
		close(stop)
		alone2 := measure()
		watcher := (alone + alone2) / 2
		b.ReportMetric(watcher, "%cpu-watcher")
		b.ReportMetric(open, "%cpu-board-open")
		b.ReportMetric(open-watcher, "%cpu-added")
		if watcher > 0 {
			b.ReportMetric(open/watcher, "ratio")
		}
		b.ReportMetric(float64(*events), "events")
		b.ReportMetric(float64(*fetches), "fetches")
		var load [3]float64
		if s, err := os.ReadFile("/proc/loadavg"); err == nil {
			f := strings.Fields(string(s))
			for i := range load {
				load[i], _ = strconv.ParseFloat(f[i], 64)
			}
			b.ReportMetric(load[0], "loadavg")
		}
	}
}
