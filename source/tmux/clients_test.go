package tmux

import (
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
