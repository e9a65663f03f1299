// Package sshtest runs a throwaway OpenSSH server on 127.0.0.1 for tests:
// its own host key and user key in a temporary directory, its own
// authorized_keys, a high port, and the environment its sessions get (a
// "remote" HOME and MEW_HOME on this same machine). It runs as the current
// user, who is the only one it lets in.
package sshtest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ErrUnavailable means this machine cannot run the test server; the error
// says why (tests skip with it).
var ErrUnavailable = errors.New("sshd is not available")

// Server is one sshd.
type Server struct {
	Dir        string // keys, config, known_hosts
	Port       int
	UserKey    string // the client's private key
	KnownHosts string // a known_hosts file with the server's key
	sshd       string
	config     string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// Find returns sshd and ssh-keygen, or ErrUnavailable saying what is
// missing.
func Find() (sshd, keygen string, err error) {
	for _, p := range []string{"/usr/sbin/sshd", "/usr/local/sbin/sshd", "/opt/homebrew/sbin/sshd"} {
		if _, err := os.Stat(p); err == nil {
			sshd = p
			break
		}
	}
	if sshd == "" {
		if p, err := exec.LookPath("sshd"); err == nil {
			sshd = p
		}
	}
	if sshd == "" {
		return "", "", fmt.Errorf("%w: no sshd (apt-get install openssh-server)", ErrUnavailable)
	}
	keygen, err = exec.LookPath("ssh-keygen")
	if err != nil {
		return "", "", fmt.Errorf("%w: no ssh-keygen", ErrUnavailable)
	}
	if _, err := exec.LookPath("ssh"); err != nil {
		return "", "", fmt.Errorf("%w: no ssh client", ErrUnavailable)
	}
	return sshd, keygen, nil
}

// Start makes keys and a config in dir and starts sshd. env are the
// variables every session gets ("KEY=value", no spaces or quotes), e.g.
// HOME, MEW_HOME and PATH of the "remote" side.
func Start(dir string, env []string) (*Server, error) {
	sshd, keygen, err := Find()
	if err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		// sshd started by root checks its privilege separation directory
		// (the service unit makes it at boot; a container has none).
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			return nil, fmt.Errorf("%w: cannot make /run/sshd: %v", ErrUnavailable, err)
		}
	}
	s := &Server{Dir: dir, sshd: sshd, UserKey: filepath.Join(dir, "user_key"), KnownHosts: filepath.Join(dir, "known_hosts"), config: filepath.Join(dir, "sshd_config")}
	for _, k := range []string{"host_key", "user_key"} {
		out, err := exec.Command(keygen, "-q", "-t", "ed25519", "-N", "", "-C", "mew-test", "-f", filepath.Join(dir, k)).CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("ssh-keygen: %v: %s", err, out)
		}
	}
	pub, err := os.ReadFile(s.UserKey + ".pub")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "authorized_keys"), pub, 0o600); err != nil {
		return nil, err
	}
	for _, e := range env {
		if strings.ContainsAny(e, " \t\n\"'\\") || !strings.Contains(e, "=") {
			return nil, fmt.Errorf("session variable %q: want KEY=value without spaces or quotes", e)
		}
	}
	for attempt := 0; ; attempt++ {
		if s.Port, err = freePort(); err != nil {
			return nil, err
		}
		if err = s.writeConfig(env); err != nil {
			return nil, err
		}
		if err = s.start(); err == nil {
			break
		}
		if attempt == 3 {
			return nil, err
		}
	}
	hostPub, err := os.ReadFile(filepath.Join(dir, "host_key.pub"))
	if err != nil {
		return nil, err
	}
	line := fmt.Sprintf("[127.0.0.1]:%d %s", s.Port, strings.TrimSpace(string(hostPub)))
	if err := os.WriteFile(s.KnownHosts, []byte(line+"\n"), 0o600); err != nil {
		return nil, err
	}
	return s, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (s *Server) writeConfig(env []string) error {
	cfg := []string{
		"Port " + strconv.Itoa(s.Port),
		"ListenAddress 127.0.0.1",
		"HostKey " + filepath.Join(s.Dir, "host_key"),
		"AuthorizedKeysFile " + filepath.Join(s.Dir, "authorized_keys"),
		"PidFile none",
		"StrictModes no", // the temporary directory's modes are not a user's home's
		"UsePAM no",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"PubkeyAuthentication yes",
		"PermitRootLogin prohibit-password",
		"AllowUsers " + currentUser(),
		"LogLevel ERROR",
		// The default (10:30:100) drops 30 % of new connections while ten
		// are still in their key exchange: on a loaded machine a test's few
		// clients (a watch, a status, a doctor) are, and ssh says
		// "kex_exchange_identification: Connection closed by remote host".
		"MaxStartups 1000",
	}
	if len(env) > 0 {
		cfg = append(cfg, "SetEnv "+strings.Join(env, " "))
	}
	return os.WriteFile(s.config, []byte(strings.Join(cfg, "\n")+"\n"), 0o600)
}

func currentUser() string {
	if u := os.Getenv("USER"); u != "" && os.Geteuid() != 0 {
		return u
	}
	out, err := exec.Command("id", "-un").Output()
	if err != nil {
		return "root"
	}
	return strings.TrimSpace(string(out))
}

// start runs sshd in the foreground (-D) and waits until it accepts
// connections.
func (s *Server) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	// sshd's log goes to a file: its sessions inherit the descriptor, and
	// a pipe would hold cmd.Wait until the last of them exits.
	logPath := filepath.Join(s.Dir, "sshd.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer logFile.Close()
	cmd := exec.Command(s.sshd, "-D", "-e", "-f", s.config)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	log := func() string { b, _ := os.ReadFile(logPath); return string(b) }
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	// Listening is seen as the first connection sshd accepts and answers
	// with its version line (a connect alone can reach a listener still
	// setting up). The bound is generous: a loaded machine starts sshd
	// slowly, and sshd that exits says so at once (done).
	deadline := time.Now().Add(listenBound)
	for {
		if s.greets() {
			break
		}
		select {
		case <-done:
			return fmt.Errorf("sshd exited: %s", strings.TrimSpace(log()))
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-done
			return fmt.Errorf("sshd did not listen within %v: %s", listenBound, strings.TrimSpace(log()))
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.cmd, s.done = cmd, done
	return nil
}

// listenBound is how long a starting sshd may take to answer.
const listenBound = 60 * time.Second

// greets reports whether sshd answers a connection with its version line.
func (s *Server) greets() bool {
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(s.Port), time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	// The whole line: closing with some of it unread would reset the
	// connection, and sshd would log a kex_exchange_identification error
	// that reads like a real client's.
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "SSH-")
}

// SSHOptions are the `mew remote add` options (and ssh -o options) that
// reach this server.
func (s *Server) SSHOptions() []string {
	return []string{
		"Port=" + strconv.Itoa(s.Port),
		"IdentityFile=" + s.UserKey,
		"IdentitiesOnly=yes",
		"UserKnownHostsFile=" + s.KnownHosts,
		"StrictHostKeyChecking=yes",
		"LogLevel=ERROR",
	}
}

// Host is the destination to give ssh.
func (s *Server) Host() string { return "127.0.0.1" }

// Stop kills sshd and every process of its sessions: the machine went
// away. Connections end at once.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	pid := s.cmd.Process.Pid
	kids := Descendants(pid)
	s.cmd.Process.Kill()
	for _, k := range kids {
		syscall.Kill(k, syscall.SIGKILL)
	}
	<-s.done
	s.cmd = nil
}

// Restart starts sshd again on the same port with the same keys.
func (s *Server) Restart() error {
	var err error
	for range 50 { // the port may linger a moment after the kill
		if err = s.start(); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// DropConnections kills the processes serving the current connections
// (the listener stays): each client sees its connection end, as when a
// link drops and comes back.
func (s *Server) DropConnections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return 0
	}
	kids := Descendants(s.cmd.Process.Pid)
	for _, k := range kids {
		syscall.Kill(k, syscall.SIGKILL)
	}
	return len(kids)
}

// Log is what sshd wrote so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "sshd.log"))
	return string(b)
}

// Descendants lists every process below pid (Linux /proc), deepest
// first.
func Descendants(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// "pid (comm) state ppid …": comm may hold spaces and parens.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 2 {
			continue
		}
		pp, _ := strconv.Atoi(f[1])
		children[pp] = append(children[pp], p)
	}
	var out []int
	var walk func(int)
	walk = func(p int) {
		for _, c := range children[p] {
			walk(c)
			out = append(out, c)
		}
	}
	walk(pid)
	return out
}
