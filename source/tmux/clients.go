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

// ListClients lists the server's clients in one `tmux list-clients`. No
// server is no clients.
func ListClients(ctx context.Context, r Runner) ([]Client, error) {
	lines, err := r.Run(ctx, "list-clients", "-F", clientsFormat)
	if err == ErrNoServer {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseClients(lines), nil
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
