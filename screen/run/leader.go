package run

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// Leader is the session leader `mew run` starts on the agent's terminal:
// the agent runs as its job, in a process group of its own in the
// foreground, as a shell would run it. The kernel discards a stop
// (SIGTSTP: Ctrl-Z) sent to an orphaned process group, and a session
// leader's own group is one: an agent started as the leader could never
// be suspended. When the agent stops, Leader tells the wrapper (SIGUSR1 to
// its parent), which gives the person's terminal back and stops too; `fg`
// continues both. Leader returns the agent's exit code (128+n for signal n).
func Leader(argv []string) int {
	if len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "mew run: no command to run")
		return 2
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "mew run: %v\n", err)
		return 127
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// Its own process group, the terminal's foreground one (Ctty is this
	// process's descriptor of the terminal).
	cmd.SysProcAttr = &syscall.SysProcAttr{Foreground: true, Ctty: 0}
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, unix.SIGTERM, unix.SIGHUP, unix.SIGINT, unix.SIGQUIT)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "mew run: %v\n", err)
		return 126
	}
	pid := cmd.Process.Pid
	go func() {
		for s := range sigs {
			unix.Kill(-pid, s.(syscall.Signal))
		}
	}()
	for {
		var ws unix.WaitStatus
		_, err := unix.Wait4(pid, &ws, unix.WUNTRACED, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 1
		}
		switch {
		case ws.Stopped():
			unix.Kill(os.Getppid(), unix.SIGUSR1)
		case ws.Exited(), ws.Signaled():
			return exitCode(ws)
		}
	}
}
