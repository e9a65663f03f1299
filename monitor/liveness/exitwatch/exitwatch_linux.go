package exitwatch

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// pidfds: one non-blocking pidfd per process, handed to the runtime's
// poller through os.NewFile. A pidfd becomes readable when its process
// exits, and it names that process, not the pid: a reused pid cannot
// confuse it.
type pidfds struct{ report func(int) }

func newOS(report func(int)) (osWatcher, error) {
	// Probe once: pidfd_open is Linux 5.3, PIDFD_NONBLOCK 5.10.
	fd, err := unix.PidfdOpen(os.Getpid(), unix.PIDFD_NONBLOCK)
	if err != nil {
		return nil, ErrUnsupported
	}
	unix.Close(fd)
	return pidfds{report: report}, nil
}

func (p pidfds) add(pid int) (func(), bool, error) {
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if errors.Is(err, unix.ESRCH) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, &os.SyscallError{Syscall: "pidfd_open", Err: err}
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, false, err
	}
	go func() {
		// Read calls the function, and again each time the poller says
		// the fd is readable, until it returns true; it fails once f is
		// closed (Remove, Close), and then nothing is reported.
		err := rc.Read(func(fd uintptr) bool { return readable(int(fd)) })
		if err == nil {
			p.report(pid)
		}
		f.Close()
	}()
	return func() { f.Close() }, false, nil
}

func (pidfds) close() error { return nil }

// readable polls fd without waiting.
func readable(fd int) bool {
	pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(pfd, 0)
	return err == nil && n > 0 && pfd[0].Revents != 0
}
