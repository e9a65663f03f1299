package proctree

import "golang.org/x/sys/unix"

// Environ returns the variables named in keys from the environment pid was
// started with (kern.procargs2 answers for the person's own processes only).
func Environ(pid int, keys []string) (map[string]string, error) {
	if pid <= 0 {
		return nil, ErrNoProcess
	}
	buf, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return nil, err
	}
	if len(buf) > maxEnviron {
		buf = buf[:maxEnviron]
	}
	env, err := parseProcArgs2(buf)
	if err != nil {
		return nil, err
	}
	return pick(env, keys), nil
}
