package tmux

import (
	"context"
	"strconv"
	"strings"
)

// Client is one client attached to a tmux server: what the alert policy
// needs to tell which pane is in front (board.FrontPanes).
type Client struct {
	Flags     string // #{client_flags}
	Pane      string // #{pane_id}: the active pane of its current window
	ServerPid int    // #{pid}
	Socket    string // #{socket_path}
	TTY       string // #{client_tty}
}

// clientsFormat is tab-separated, like every format Mew reads (Exec runs
// tmux with -u, so the tabs survive).
const clientsFormat = "#{client_flags}\t#{pane_id}\t#{pid}\t#{socket_path}\t#{client_tty}"

// Clients is what one server says about its clients.
type Clients struct {
	// FocusEvents: the server's focus-events option is on, so a client
	// whose terminal has focus says so ("focused"), and one that does not
	// say so has none.
	FocusEvents bool
	List        []Client
}

// ListClients lists the server's clients and its focus-events option, in
// one tmux command. No server is no clients.
func ListClients(ctx context.Context, r Runner) (Clients, error) {
	lines, err := r.Run(ctx, "show-options", "-gv", "focus-events", ";", "list-clients", "-F", clientsFormat)
	if err == ErrNoServer {
		return Clients{}, nil
	}
	if err != nil {
		return Clients{}, err
	}
	if len(lines) == 0 {
		return Clients{}, nil
	}
	return Clients{FocusEvents: lines[0] == "on", List: ParseClients(lines[1:])}, nil
}

// ParseClients reads list-clients lines of clientsFormat; a line of
// another shape is skipped.
func ParseClients(lines []string) []Client {
	var out []Client
	for _, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 5 {
			continue
		}
		pid, _ := strconv.Atoi(f[2])
		out = append(out, Client{Flags: f[0], Pane: f[1], ServerPid: pid, Socket: f[3], TTY: f[4]})
	}
	return out
}
