// Package remote follows the sessions of other machines over SSH: the
// person's own `ssh` (and ~/.ssh/config) runs `mew status --watch --json
// --feed` on each host, and a Hub keeps the latest list of every host,
// reconnecting with backoff and marking a host that cannot be reached as
// offline (its sessions keep their last state, greyed; never exited).
// It is an input of the read side only: the actions on a remote session
// live with the local ones (jump.PlanRemote, answer.OnRemote,
// install.DoctorRemotes), which build on its Remote, SSHArgv and RunSSH.
//
// Nothing from a config file or a host reaches a command line unchecked:
// names, hosts and ssh options are validated against narrow shapes, every
// ssh option goes in as one "-o Key=Value" argument of an allowed key, and
// the command the remote shell runs is built from fixed words and values
// that need no quoting.
package remote

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/store"
)

// Remote is one machine Mew follows.
type Remote struct {
	Name string `json:"name"`
	// Host is the ssh destination, [user@]host: a host name, an alias of
	// ~/.ssh/config or an address.
	Host string `json:"host"`
	// SSHOptions are extra ssh options, each "Key=Value" (passed as -o).
	SSHOptions []string `json:"ssh_options,omitempty"`
	// Mew is the mew command on the host; "mew" (from its PATH) when empty.
	Mew string `json:"mew,omitempty"`
}

// Config is $MEW_HOME/remotes.json.
type Config struct {
	Version int      `json:"version"`
	Remotes []Remote `json:"remotes"`
}

// ConfigVersion is the layout of remotes.json.
const ConfigVersion = 1

const (
	configFile = "remotes.json"
	cacheDir   = "remotes" // last snapshot of each remote: <name>.json
	fileMode   = 0o600
	dirMode    = 0o700
	maxRemotes = 32
)

// ConfigPath is the config file in mewHome.
func ConfigPath(mewHome string) string { return filepath.Join(mewHome, configFile) }

// CacheDir is where the last snapshot of each remote is kept.
func CacheDir(mewHome string) string { return filepath.Join(mewHome, cacheDir) }

var (
	nameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$`)
	userRe = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$`)
	// A host name, an ssh_config alias or an IPv4 address; never a leading
	// '-' (ssh would read an option).
	hostRe = regexp.MustCompile(`^[A-Za-z0-9_]([A-Za-z0-9._-]{0,252})$`)
	ipv6Re = regexp.MustCompile(`^[0-9A-Fa-f]{0,4}(:[0-9A-Fa-f]{0,4}){2,7}(%[A-Za-z0-9]{1,16})?$`)
	// The mew command on the host goes through the remote shell: only
	// characters no shell gives a meaning to ('~' at the start is the
	// host's home, which is wanted).
	mewRe      = regexp.MustCompile(`^~?[A-Za-z0-9._/+-]{1,255}$`)
	optValueRe = regexp.MustCompile(`^[!#-&(-~]{1,512}$`) // printable ASCII but space, '"' and '\''
)

// ValidName reports whether s can name a remote: 1-32 letters, digits, '-'
// or '_', starting with a letter or digit.
func ValidName(s string) bool { return nameRe.MatchString(s) }

// ValidHost reports whether s is an ssh destination Mew passes on:
// [user@]host with a host name, alias or IP address.
func ValidHost(s string) bool {
	host := s
	if user, h, ok := strings.Cut(s, "@"); ok {
		if !userRe.MatchString(user) {
			return false
		}
		host = h
	}
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
		return ipv6Re.MatchString(host)
	}
	return hostRe.MatchString(host) || ipv6Re.MatchString(host)
}

// Options Mew sets itself for its own connections: the first value of an
// ssh option wins, so these come before the person's and cannot be
// changed. A connection that runs in the background must never ask for a
// password, open forwards, run local commands or replace the command.
var forcedOptions = []string{
	"BatchMode=yes",
	"ControlMaster=no", // use a master connection, never become one (ControlPersist would outlive Mew)
	"ClearAllForwardings=yes",
	"ForwardAgent=no",
	"ForwardX11=no",
	"PermitLocalCommand=no",
	"RemoteCommand=none",
	"RequestTTY=no",
}

// defaultOptions come after the person's: their values win.
var defaultOptions = []string{
	"ConnectTimeout=10",
	// ssh's own keepalive, besides the feed's heartbeat: a dead link ends
	// the ssh process too.
	"ServerAliveInterval=5",
	"ServerAliveCountMax=3",
}

// allowedOptions are the ssh options a remote may carry, by lower-case
// name, with their canonical spelling. Options that run commands
// (ProxyCommand, LocalCommand, KnownHostsCommand, Match exec) or change
// what the connection does are left to ~/.ssh/config, which Mew's ssh
// reads like any other.
var allowedOptions = canonical(
	"AddressFamily", "BindAddress", "BindInterface", "CertificateFile", "CheckHostIP", "Ciphers",
	"Compression", "ConnectionAttempts", "ConnectTimeout", "ControlPath", "GlobalKnownHostsFile",
	"HashKnownHosts", "HostKeyAlgorithms", "HostKeyAlias", "Hostname", "IdentitiesOnly", "IdentityAgent",
	"IdentityFile", "IPQoS", "KexAlgorithms", "LogLevel", "MACs", "NumberOfPasswordPrompts", "Port",
	"PreferredAuthentications", "ProxyJump", "PubkeyAcceptedAlgorithms", "PubkeyAuthentication",
	"ServerAliveCountMax", "ServerAliveInterval", "StrictHostKeyChecking", "TCPKeepAlive",
	"UpdateHostKeys", "User", "UserKnownHostsFile", "VerifyHostKeyDNS",
)

func canonical(names ...string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[strings.ToLower(n)] = n
	}
	return m
}

// NormalizeOption checks one ssh option given as "Key=Value" or "Key
// Value" (a leading "-o" is accepted) and returns it as "Key=Value".
func NormalizeOption(s string) (string, error) {
	opt := strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(opt, "-o"); ok {
		opt = strings.TrimSpace(rest)
	}
	key, value, ok := strings.Cut(opt, "=")
	if !ok {
		key, value, ok = strings.Cut(opt, " ")
	}
	key, value = strings.TrimSpace(key), strings.TrimSpace(value)
	if !ok || key == "" || value == "" {
		return "", fmt.Errorf("ssh option %q: want Key=Value, e.g. Port=2222", text.OneLine(s, 80))
	}
	name, allowed := allowedOptions[strings.ToLower(key)]
	if !allowed {
		for _, f := range forcedOptions {
			if strings.EqualFold(strings.SplitN(f, "=", 2)[0], key) {
				return "", fmt.Errorf("ssh option %s: Mew sets %s itself for its background connections", text.OneLine(key, 80), f)
			}
		}
		return "", fmt.Errorf("ssh option %q is not one Mew passes on; set it for this host in ~/.ssh/config (Mew's ssh reads it)", text.OneLine(key, 80))
	}
	if !optValueRe.MatchString(value) {
		return "", fmt.Errorf("ssh option %s: the value %q has spaces, quotes or control characters", name, text.OneLine(value, 80))
	}
	return name + "=" + value, nil
}

// Validate checks every field of r; the error says which and why.
func (r Remote) Validate() error {
	if !ValidName(r.Name) {
		return fmt.Errorf("remote name %q: use 1-32 letters, digits, '-' or '_', starting with a letter or digit", text.OneLine(r.Name, 80))
	}
	if !ValidHost(r.Host) {
		return fmt.Errorf("remote %s: host %q is not [user@]host (a host name, an alias of ~/.ssh/config or an IP address; set the port with --ssh-option Port=N)", r.Name, text.OneLine(r.Host, 80))
	}
	for _, o := range r.SSHOptions {
		n, err := NormalizeOption(o)
		if err != nil {
			return fmt.Errorf("remote %s: %w", r.Name, err)
		}
		if n != o {
			return fmt.Errorf("remote %s: ssh option %q is not in the form %q", r.Name, text.OneLine(o, 80), n)
		}
	}
	if r.Mew != "" && (!mewRe.MatchString(r.Mew) || strings.Contains(r.Mew, "..")) {
		return fmt.Errorf("remote %s: mew command %q: use a plain path (letters, digits, '.', '_', '/', '+', '-', a leading '~')", r.Name, text.OneLine(r.Mew, 80))
	}
	return nil
}

// MewCommand is the mew command on the host.
func (r Remote) MewCommand() string {
	if r.Mew == "" {
		return "mew"
	}
	return r.Mew
}

// SSHArgv is the argument vector that runs command on the host: ssh, the
// options Mew forces, the remote's own, the defaults, then "--", the host
// and the command. The command's words must be safe as they are for any
// remote shell (safeWord); Validate has checked the rest.
func (r Remote) SSHArgv(sshPath string, command ...string) ([]string, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if len(command) == 0 {
		return nil, errors.New("no remote command")
	}
	for _, w := range command {
		if !safeWord(w) {
			return nil, fmt.Errorf("remote command word %q needs quoting; refused", text.OneLine(w, 80))
		}
	}
	argv := []string{sshPath, "-T"}
	for _, group := range [][]string{forcedOptions, r.SSHOptions, defaultOptions} {
		for _, o := range group {
			argv = append(argv, "-o", o)
		}
	}
	return append(append(argv, "--", sshDestination(r.Host)), strings.Join(command, " ")), nil
}

// sshDestination is host as ssh takes it: an IPv6 address written in
// brackets ("root@[::1]", how URLs write one) without them, since ssh
// would look the bracketed name up and never connect.
func sshDestination(host string) string {
	user, h, ok := strings.Cut(host, "@")
	if !ok {
		user, h = "", host
	}
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		h = h[1 : len(h)-1]
	}
	if ok {
		return user + "@" + h
	}
	return h
}

var safeWordRe = regexp.MustCompile(`^~?[A-Za-z0-9._/+%=:,@-]+$`)

// safeWord reports whether w means itself to sh, bash, zsh, fish and csh:
// no quoting, globbing, expansion or separator characters ('%' never first:
// old fish expands it), except "\;" (tmux's command separator, escaped
// for every shell).
func safeWord(w string) bool {
	return w == `\;` || (safeWordRe.MatchString(w) && !strings.HasPrefix(w, "%"))
}

// Load reads the config in mewHome; a missing file is an empty config.
// A file Mew cannot trust is an error, never half-used.
func Load(mewHome string) (Config, error) {
	var c Config
	found, err := privfile.ReadJSON(ConfigPath(mewHome), maxConfig, &c)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %v", ConfigPath(mewHome), err)
	}
	if !found {
		return Config{Version: ConfigVersion}, nil
	}
	if c.Version != ConfigVersion {
		return Config{}, fmt.Errorf("%s: version %d, this Mew reads version %d", ConfigPath(mewHome), c.Version, ConfigVersion)
	}
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("%s: %w", ConfigPath(mewHome), err)
	}
	return c, nil
}

// maxConfig bounds remotes.json: maxRemotes remotes are a few KiB.
const maxConfig = 256 << 10

// Validate checks every remote and that names are unique.
func (c Config) Validate() error {
	if len(c.Remotes) > maxRemotes {
		return fmt.Errorf("%d remotes; Mew follows %d at most", len(c.Remotes), maxRemotes)
	}
	seen := map[string]bool{}
	for _, r := range c.Remotes {
		if err := r.Validate(); err != nil {
			return err
		}
		if seen[strings.ToLower(r.Name)] {
			return fmt.Errorf("remote %s is listed twice", r.Name)
		}
		seen[strings.ToLower(r.Name)] = true
	}
	return nil
}

// Find returns the remote called name.
func (c Config) Find(name string) (Remote, bool) {
	for _, r := range c.Remotes {
		if strings.EqualFold(r.Name, name) {
			return r, true
		}
	}
	return Remote{}, false
}

// Edit changes the config in mewHome under a lock (two `mew remote`
// commands at once don't lose each other's change) and writes it back
// atomically; change returns an error to write nothing.
func Edit(mewHome string, change func(*Config) error) error {
	if err := os.MkdirAll(mewHome, dirMode); err != nil {
		return err
	}
	fl := flock.New(ConfigPath(mewHome)+".lock", flock.SetPermissions(fileMode))
	if err := lockWithin(fl, 2*time.Second); err != nil {
		return err
	}
	defer func() { fl.Unlock(); fl.Close() }()
	c, err := Load(mewHome)
	if err != nil {
		return err
	}
	if err := change(&c); err != nil {
		return err
	}
	c.Version = ConfigVersion
	if err := c.Validate(); err != nil {
		return err
	}
	sort.SliceStable(c.Remotes, func(i, j int) bool { return c.Remotes[i].Name < c.Remotes[j].Name })
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return store.WriteFileAtomic(ConfigPath(mewHome), append(data, '\n'), fileMode)
}

func lockWithin(fl *flock.Flock, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		ok, err := fl.TryLock()
		if err != nil {
			return fmt.Errorf("cannot lock %s: %w", fl.Path(), err)
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s is locked by another mew; try again", fl.Path())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Add adds r; a remote of the same name is an error.
func (c *Config) Add(r Remote) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if _, dup := c.Find(r.Name); dup {
		return fmt.Errorf("there is a remote called %s already (`mew remote rm %s` first)", r.Name, r.Name)
	}
	c.Remotes = append(c.Remotes, r)
	return nil
}

// Remove takes the remote called name out.
func (c *Config) Remove(name string) error {
	for i, r := range c.Remotes {
		if strings.EqualFold(r.Name, name) {
			c.Remotes = append(c.Remotes[:i], c.Remotes[i+1:]...)
			return nil
		}
	}
	return fmt.Errorf("no remote called %q (see `mew remote list`)", text.OneLine(name, 80))
}
