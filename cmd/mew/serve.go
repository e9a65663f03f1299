package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/board/act"
	"github.com/mew-dev/mew/internal/alertprefs"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/internal/weblink"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/source/remote"
	"github.com/mew-dev/mew/web"
)

func init() {
	add(&command{
		name: "serve", summary: "the web board for a browser or a phone (paired devices only); `serve devices` lists them",
		args: "[devices [list | revoke ID]]",
		help: `Serves the board to a browser: live sessions, the choices of a waiting prompt as buttons
(typed the way the panel types them), mute and snooze. A browser pairs once with the code
shown here. Reach it from a phone with 'ssh -L' or 'tailscale serve' (see README).
'mew serve devices' lists the paired devices; 'mew serve devices revoke ID' forgets one.`,
		// Its own parser (runServe) also takes the devices subcommand;
		// the flags are declared here for the help.
		raw: true,
		setup: func(fs *flag.FlagSet) runFunc {
			var sf serveFlags
			sf.add(fs)
			return runServe
		},
	})
}

// defaultListen is where `mew serve` listens: this machine only. Reach
// from a phone goes through what the person trusts (ssh -L, tailscale
// serve), never through a service of Mew's.
const defaultListen = "127.0.0.1:7733"

// serveFlags are `mew serve`'s options, shared with `mew watch --headless
// --serve`.
type serveFlags struct {
	listen, publicURL, certFile, keyFile string
	allowHosts                           string
}

func (f *serveFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&f.listen, "listen", defaultListen, "`address` to listen on; another than loopback only with a warning (paired devices only, always)")
	fs.StringVar(&f.publicURL, "public-url", "", "the `URL` the board is reached at from elsewhere (tailscale serve): alerts link to it; \"none\" forgets it")
	fs.StringVar(&f.allowHosts, "allow-host", "", "more host `names` (comma-separated) requests may be addressed to")
	fs.StringVar(&f.certFile, "tls-cert", "", "serve https with this certificate `file` (and --tls-key)")
	fs.StringVar(&f.keyFile, "tls-key", "", "the certificate's key `file`")
}

func runServe(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "devices" {
		return runServeDevices(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the error is said once, below
	var sf serveFlags
	sf.add(fs)
	if err := fs.Parse(args); err != nil {
		return usageError(stderr, "mew serve", "%v", err)
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "mew serve", "unexpected argument %q", clip(fs.Arg(0), 40))
	}
	o, err := monitorOptions()
	if err != nil {
		return fail(stderr, "mew serve", err)
	}
	ln, opts, err := sf.open(o.Store.Home, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mew serve: %v\n", err)
		return 2
	}
	ctx, stop := untilStopped()
	defer stop()
	attachRemotes(ctx, &o, true, stderr, "serve")
	return runHeadlessServing(ctx, o, stdout, stderr, ln, opts)
}

// open checks the flags, listens, and says on the terminal where the board
// is and how to pair.
func (f *serveFlags) open(home string, stderr io.Writer) (net.Listener, web.Options, error) {
	var opts web.Options
	host, _, err := net.SplitHostPort(f.listen)
	if err != nil {
		return nil, opts, fmt.Errorf("--listen %q: %v", f.listen, err)
	}
	ip := net.ParseIP(host)
	if host != "localhost" && ip == nil {
		return nil, opts, fmt.Errorf("--listen %q: the host must be an IP address or localhost", f.listen)
	}
	if (f.certFile == "") != (f.keyFile == "") {
		return nil, opts, fmt.Errorf("--tls-cert and --tls-key go together")
	}
	switch f.publicURL {
	case "":
	case "none":
		if err := weblink.Save(home, ""); err != nil {
			return nil, opts, err
		}
	default:
		u, err := weblink.Check(f.publicURL)
		if err != nil {
			return nil, opts, err
		}
		if err := weblink.Save(home, f.publicURL); err != nil {
			return nil, opts, err
		}
		opts.Hosts = append(opts.Hosts, u.Hostname())
	}
	if base := weblink.Load(home); base != "" && f.publicURL == "" {
		if u, err := url.Parse(base); err == nil {
			opts.Hosts = append(opts.Hosts, u.Hostname())
		}
	}
	for _, h := range strings.Split(f.allowHosts, ",") {
		if h = strings.TrimSpace(h); h != "" {
			opts.Hosts = append(opts.Hosts, h)
		}
	}
	if ip != nil && !ip.IsLoopback() {
		// Requests then name this machine's addresses.
		if ip.IsUnspecified() {
			if addrs, err := net.InterfaceAddrs(); err == nil {
				for _, a := range addrs {
					if n, ok := a.(*net.IPNet); ok {
						opts.Hosts = append(opts.Hosts, n.IP.String())
					}
				}
			}
			if name, err := os.Hostname(); err == nil {
				opts.Hosts = append(opts.Hosts, name)
			}
		} else {
			opts.Hosts = append(opts.Hosts, ip.String())
		}
		fmt.Fprintf(stderr, "mew serve: WARNING: listening on %s, reachable from other machines on that network.\n", f.listen)
		fmt.Fprintln(stderr, "mew serve: only paired devices get in, but prefer 127.0.0.1 with `ssh -L` or `tailscale serve` (see README).")
		if f.certFile == "" {
			fmt.Fprintln(stderr, "mew serve: WARNING: without --tls-cert the traffic, the device cookie included, is not encrypted.")
		}
	}
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return nil, opts, err
	}
	scheme := "http"
	if f.certFile != "" {
		cert, err := tls.LoadX509KeyPair(f.certFile, f.keyFile)
		if err != nil {
			ln.Close()
			return nil, opts, err
		}
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
		opts.TLS, scheme = true, "https"
	}
	local := scheme + "://" + ln.Addr().String()
	pairBase := local
	if base := weblink.Load(home); base != "" {
		pairBase = strings.TrimRight(base, "/")
	}
	opts.OnCode = func(code string, expires time.Time) {
		showPairing(stderr, local, pairBase, code, expires)
	}
	return ln, opts, nil
}

// showPairing prints the board's address, the pairing code and a QR code
// of the pairing link (for a phone's camera).
func showPairing(w io.Writer, local, pairBase, code string, expires time.Time) {
	link := pairBase + "/pair?code=" + code
	fmt.Fprintf(w, "Mew's web board: %s/\n", local)
	fmt.Fprintf(w, "pairing code: %s (one device, until %s)\n", code, expires.Local().Format("15:04"))
	fmt.Fprintf(w, "pairing link: %s\n", link)
	if q, err := qrcode.New(link, qrcode.Medium); err == nil {
		fmt.Fprint(w, q.ToSmallString(false))
	}
}

// runHeadlessServing runs the watcher with the web board on ln until ctx
// ends: `mew serve`, and `mew watch --headless --serve`.
func runHeadlessServing(ctx context.Context, o monitor.Options, stdout, stderr io.Writer, ln net.Listener, opts web.Options) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	hub, _ := o.Remote.(*remote.Hub)
	sessions := &act.Sessions{Remotes: func() *remote.Hub { return hub }}
	typist := &answer.Answerer{Home: o.Store.Home, Rules: rules.Cached(rules.Dir(o.Store.Home))}
	answers := &act.Answerer{Sessions: sessions, Local: act.LocalAnswer(typist)}
	opts.Home = o.Store.Home
	opts.Prefs = &alertprefs.Store{Home: o.Store.Home}
	opts.Prompt = web.PromptFrom(sessions, o.Store.Home)
	opts.Submit = answers.Submit
	opts.Watched = os.Getenv("MEW_TMUX_SOCKET")
	opts.Log = func(format string, args ...any) { fmt.Fprintf(stderr, "mew serve: "+format+"\n", args...) }
	srv := web.New(opts)
	srv.PairCode() // shows the first code
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ctx, ln) }()
	code := runHeadless(ctx, o, stderr, sessions, func(u monitor.Update) { srv.PublishList(u.Sessions) })
	cancel()
	if err := <-errc; err != nil {
		return fail(stderr, "mew serve", err)
	}
	return code
}

func runServeDevices(args []string, stdout, stderr io.Writer) int {
	o, err := monitorOptions()
	if err != nil {
		return fail(stderr, "mew serve devices", err)
	}
	d := &web.Devices{Home: o.Store.Home}
	switch {
	case len(args) == 0 || (len(args) == 1 && args[0] == "list"):
		list, err := d.List()
		if err != nil {
			return fail(stderr, "mew serve devices", err)
		}
		if len(list) == 0 {
			fmt.Fprintln(stdout, "no paired devices (`mew serve` shows a pairing code)")
			return 0
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tPAIRED")
		for _, dev := range list {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", text.OneLine(dev.ID, 16), text.OneLine(dev.Name, 60), dev.Created.Local().Format("2006-01-02 15:04"))
		}
		tw.Flush()
		return 0
	case len(args) == 2 && args[0] == "revoke":
		if err := d.Revoke(args[1]); err != nil {
			return fail(stderr, "mew serve devices", err)
		}
		fmt.Fprintf(stdout, "revoked %s: that browser gets no more than the pairing page\n", text.OneLine(args[1], 16))
		return 0
	}
	fmt.Fprintln(stderr, "usage: mew serve devices [list | revoke ID]")
	return 2
}
