package tmux

import (
	"context"
	"reflect"
	"testing"
)

func TestParseClients(t *testing.T) {
	got := ParseClients([]string{
		"attached,focused,UTF-8\t%3\t4242\t/tmp/tmux-1000/default\t/dev/pts/7",
		"attached,UTF-8\t%0\t4242\t/tmp/tmux-1000/default\t/dev/pts/9",
		"garbage",
	})
	want := []Client{
		{Flags: "attached,focused,UTF-8", Pane: "%3", ServerPid: 4242, Socket: "/tmp/tmux-1000/default", TTY: "/dev/pts/7"},
		{Flags: "attached,UTF-8", Pane: "%0", ServerPid: 4242, Socket: "/tmp/tmux-1000/default", TTY: "/dev/pts/9"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%+v", got)
	}
}

// ListClients against a real server with no client: no clients, no error
// (the focus question when nobody is attached).
func TestListClientsRealServer(t *testing.T) {
	s := startServer(t)
	clients, err := ListClients(context.Background(), Exec{Socket: s.socket})
	if err != nil || len(clients.List) != 0 || clients.FocusEvents {
		t.Fatalf("%+v %v", clients, err)
	}
	s.tmux("set-option", "-g", "focus-events", "on")
	if clients, err = ListClients(context.Background(), Exec{Socket: s.socket}); err != nil || !clients.FocusEvents {
		t.Fatalf("focus-events on: %+v %v", clients, err)
	}
	gone, err := ListClients(context.Background(), Exec{Socket: s.socket + ".none"})
	if err != nil || gone.List != nil {
		t.Fatalf("no server: %+v %v", gone, err)
	}
}

// BenchmarkListClients is what the focus question costs at an alert: one
// `tmux list-clients` (make bench-screen reports it with the sweep).
func BenchmarkListClients(b *testing.B) {
	s := startServerTB(b)
	e := Exec{Socket: s.socket}
	for b.Loop() {
		if _, err := ListClients(context.Background(), e); err != nil {
			b.Fatal(err)
		}
	}
}
