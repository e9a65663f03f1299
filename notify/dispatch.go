package notify

import (
	"context"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/mew-dev/mew/internal/privfile"
)

// Logger is where the sinks say what went wrong (mew.log).
type Logger interface {
	Printf(format string, args ...any)
}

// Limits bound what a sink may cost. The zero value of a field takes the
// default.
type Limits struct {
	Queue    int           // messages waiting per sink; more are dropped (16)
	Timeout  time.Duration // one attempt (10 s)
	Attempts int           // tries of one message (3)
	Backoff  time.Duration // before the second try, doubled after (1 s)
	// Burst and Every are the rate limit: Burst messages at once, then one
	// per Every (5, 12 s: a burst of sessions finishing is heard, a loop
	// that flaps is not a flood of pushes).
	Burst int
	Every time.Duration
}

func (l Limits) withDefaults() Limits {
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	if l.Queue <= 0 {
		l.Queue = 16
	}
	if l.Attempts <= 0 {
		l.Attempts = 3
	}
	if l.Burst <= 0 {
		l.Burst = 5
	}
	def(&l.Timeout, 10*time.Second)
	def(&l.Backoff, time.Second)
	def(&l.Every, 12*time.Second)
	return l
}

// Dispatcher hands messages to every sink's worker. Send never blocks.
type Dispatcher struct {
	home    string
	log     Logger
	workers []*worker
	wg      sync.WaitGroup
	mu      sync.Mutex
	status  map[string]SinkStatus
}

// SinkStatus is what `mew doctor` shows of a sink: its last delivery and
// its last failure ($MEW_HOME/notify-status.json).
type SinkStatus struct {
	LastOK    time.Time `json:"last_ok,omitzero"`
	LastError string    `json:"last_error,omitempty"`
	ErrorAt   time.Time `json:"error_at,omitzero"`
	Dropped   int       `json:"dropped,omitempty"`
}

// maxFile bounds what is read of notify.json and notify-status.json (a
// few KiB each).
const maxFile = 1 << 20

// StatusName is the status file in $MEW_HOME.
const StatusName = "notify-status.json"

// Options are what Start needs besides the sinks.
type Options struct {
	Home   string
	Log    Logger
	Limits Limits
	// Jump runs when the person clicks a desktop notification's Jump.
	Jump func(id string)
	// Desktop connects the desktop sink; nil uses the session bus.
	Desktop func() (DesktopConn, error)
}

// Start starts one worker per sink; they run until ctx ends (Wait).
func Start(ctx context.Context, sinks []Sink, o Options) *Dispatcher {
	lim := o.Limits.withDefaults()
	d := &Dispatcher{home: o.Home, log: o.Log, status: map[string]SinkStatus{}}
	if d.log == nil {
		d.log = discard{}
	}
	client := &http.Client{
		// No redirect: a webhook goes where the person said, and a
		// redirect would carry its body elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	for _, s := range sinks {
		snd := newSender(s, o, client, d.log)
		if snd == nil {
			continue
		}
		w := &worker{name: s.Name, snd: snd, lim: lim, q: make(chan Message, lim.Queue), d: d}
		d.workers = append(d.workers, w)
		d.wg.Add(1)
		go func() { defer d.wg.Done(); w.run(ctx) }()
	}
	return d
}

func newSender(s Sink, o Options, client *http.Client, log Logger) sender {
	switch s.Kind {
	case KindCommand:
		return commandSender{argv: s.Argv}
	case KindWebhook:
		return webhookSender{url: s.URL, preset: s.Preset, client: client}
	case KindDesktop:
		dial := o.Desktop
		if dial == nil {
			dial = SessionBus
		}
		return &desktopSender{dial: dial, jump: o.Jump, log: log}
	}
	return nil
}

// SendOnce sends m to s once, now, and says how it went (`mew notify
// test`): no queue, no retry.
func SendOnce(ctx context.Context, s Sink, m Message, o Options) error {
	if err := s.Validate(); err != nil {
		return err
	}
	lim := o.Limits.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	log := o.Log
	if log == nil {
		log = discard{}
	}
	return newSender(s, o, client, log).send(ctx, m)
}

// Send queues m for every sink; a sink whose queue is full drops it (and
// says so in the log).
func (d *Dispatcher) Send(m Message) {
	for _, w := range d.workers {
		select {
		case w.q <- m:
		default:
			d.log.Printf("notify %s: queue full, dropped the alert for %s", w.name, m.Session.ID)
			d.note(w.name, func(s *SinkStatus) { s.Dropped++ })
		}
	}
}

// Wait waits for the workers to end (after ctx ended).
func (d *Dispatcher) Wait() { d.wg.Wait() }

func (d *Dispatcher) note(name string, f func(*SinkStatus)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := d.status[name]
	f(&s)
	d.status[name] = s
	if d.home == "" {
		return
	}
	if err := privfile.WriteJSON(filepath.Join(d.home, StatusName), d.status); err != nil {
		d.log.Printf("notify: cannot write %s: %v", StatusName, err)
	}
}

// LoadStatus reads the sinks' status for `mew doctor`.
func LoadStatus(home string) (map[string]SinkStatus, error) {
	var st map[string]SinkStatus
	_, err := privfile.ReadJSON(filepath.Join(home, StatusName), maxFile, &st)
	return st, err
}

type worker struct {
	name string
	snd  sender
	lim  Limits
	q    chan Message
	d    *Dispatcher
}

func (w *worker) run(ctx context.Context) {
	tokens := float64(w.lim.Burst)
	last := time.Now()
	for {
		var m Message
		select {
		case <-ctx.Done():
			return
		case m = <-w.q:
		}
		now := time.Now()
		tokens = min(float64(w.lim.Burst), tokens+now.Sub(last).Seconds()/w.lim.Every.Seconds())
		last = now
		if tokens < 1 {
			w.d.log.Printf("notify %s: rate limit, dropped the alert for %s", w.name, m.Session.ID)
			w.d.note(w.name, func(s *SinkStatus) { s.Dropped++ })
			continue
		}
		tokens--
		w.deliver(ctx, m)
	}
}

// deliver tries m up to Attempts times, waiting Backoff, 2×Backoff, …
// between tries.
func (w *worker) deliver(ctx context.Context, m Message) {
	wait := w.lim.Backoff
	var err error
	for try := 1; try <= w.lim.Attempts; try++ {
		actx, cancel := context.WithTimeout(ctx, w.lim.Timeout)
		err = w.snd.send(actx, m)
		cancel()
		if err == nil {
			w.d.note(w.name, func(s *SinkStatus) { s.LastOK = time.Now() })
			return
		}
		if ctx.Err() != nil || try == w.lim.Attempts {
			break
		}
		w.d.log.Printf("notify %s: try %d failed: %v; again in %s", w.name, try, err, wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		wait *= 2
	}
	w.d.log.Printf("notify %s: gave up on the alert for %s: %v", w.name, m.Session.ID, err)
	w.d.note(w.name, func(s *SinkStatus) { s.LastError, s.ErrorAt = err.Error(), time.Now() })
}

type discard struct{}

func (discard) Printf(string, ...any) {}
