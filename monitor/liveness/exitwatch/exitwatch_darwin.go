package exitwatch

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// kq is one kqueue for every watched pid (EVFILT_PROC, NOTE_EXIT, one
// shot) and one goroutine blocked in kevent for it. An EVFILT_USER event
// wakes that goroutine to end it.
type kq struct {
	fd     int
	report func(int)
	ended  chan struct{}
}

// wakeIdent is the EVFILT_USER event Close triggers.
const wakeIdent = 1

func newOS(report func(int)) (osWatcher, error) {
	fd, err := unix.Kqueue()
	if err != nil {
		return nil, &os.SyscallError{Syscall: "kqueue", Err: err}
	}
	unix.CloseOnExec(fd)
	wake := unix.Kevent_t{Ident: wakeIdent, Filter: unix.EVFILT_USER, Flags: unix.EV_ADD | unix.EV_CLEAR}
	if _, err := unix.Kevent(fd, []unix.Kevent_t{wake}, nil, nil); err != nil {
		unix.Close(fd)
		return nil, &os.SyscallError{Syscall: "kevent", Err: err}
	}
	k := &kq{fd: fd, report: report, ended: make(chan struct{})}
	go k.loop()
	return k, nil
}

func (k *kq) loop() {
	defer close(k.ended)
	events := make([]unix.Kevent_t, 16)
	for {
		n, err := unix.Kevent(k.fd, nil, events, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return
		}
		for _, ev := range events[:n] {
			switch {
			case ev.Filter == unix.EVFILT_USER:
				return
			case ev.Filter == unix.EVFILT_PROC && ev.Fflags&unix.NOTE_EXIT != 0:
				k.report(int(ev.Ident))
			}
		}
	}
}

func (k *kq) add(pid int) (func(), bool, error) {
	ev := unix.Kevent_t{Ident: uint64(pid), Filter: unix.EVFILT_PROC, Flags: unix.EV_ADD | unix.EV_ONESHOT, Fflags: unix.NOTE_EXIT}
	_, err := unix.Kevent(k.fd, []unix.Kevent_t{ev}, nil, nil)
	if errors.Is(err, unix.ESRCH) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, &os.SyscallError{Syscall: "kevent", Err: err}
	}
	return func() {
		del := unix.Kevent_t{Ident: uint64(pid), Filter: unix.EVFILT_PROC, Flags: unix.EV_DELETE}
		unix.Kevent(k.fd, []unix.Kevent_t{del}, nil, nil) // fails when it fired already: fine
	}, false, nil
}

func (k *kq) close() error {
	wake := unix.Kevent_t{Ident: wakeIdent, Filter: unix.EVFILT_USER, Fflags: unix.NOTE_TRIGGER}
	if _, err := unix.Kevent(k.fd, []unix.Kevent_t{wake}, nil, nil); err == nil {
		<-k.ended
	}
	return unix.Close(k.fd)
}
