package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/internal/text"
)

// DevicesName is the paired devices' file in $MEW_HOME: each device's token
// is kept only as its SHA-256, so the file alone lets nobody in.
const DevicesName = "web-devices.json"

// maxDevicesFile bounds what is read of the devices file (a hostile or
// broken file never costs unbounded memory).
const maxDevicesFile = 1 << 20

// Device is one paired browser.
type Device struct {
	ID      string    `json:"id"` // short, for `mew serve devices revoke ID`
	Name    string    `json:"name"`
	Hash    string    `json:"hash"` // hex SHA-256 of the token
	Created time.Time `json:"created"`
}

type devicesFile struct {
	Devices []Device `json:"devices"`
}

// Devices is the store of paired devices under $MEW_HOME. Every check reads
// the file again (it is small), so `mew serve devices revoke` in another
// process takes effect on the next request.
type Devices struct {
	Home string
	mu   sync.Mutex
	// The list as last read, and the file's identity then: a request
	// re-parses the file only when it changed (a stat, not a parse).
	cached  []Device
	cacheID fileID
}

type fileID struct {
	size  int64
	mtime time.Time
	ino   uint64
}

func (d *Devices) path() string { return filepath.Join(d.Home, DevicesName) }

// List returns the paired devices.
func (d *Devices) List() ([]Device, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.load()
}

func (d *Devices) load() ([]Device, error) {
	// O_NONBLOCK: a FIFO put in its place must not hang every request.
	f, err := os.OpenFile(d.path(), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, os.ErrNotExist) {
		d.cached, d.cacheID = nil, fileID{}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", DevicesName)
	}
	id := fileID{size: st.Size(), mtime: st.ModTime(), ino: inode(st)}
	if id == d.cacheID && d.cached != nil {
		return append([]Device(nil), d.cached...), nil
	}
	b, err := io.ReadAll(io.LimitReader(f, maxDevicesFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxDevicesFile {
		return nil, fmt.Errorf("%s is too big", DevicesName)
	}
	var df devicesFile
	if err := json.Unmarshal(b, &df); err != nil {
		return nil, fmt.Errorf("%s: %v", DevicesName, err)
	}
	d.cached, d.cacheID = df.Devices, id
	return append([]Device(nil), df.Devices...), nil
}

// inode is the file's inode number (a rename puts another file in place
// with another one, even within the same second and size).
func inode(st os.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Ino)
	}
	return 0
}

// Add pairs a new device named name and returns its token (shown to the
// browser once, in its cookie; only its hash is stored).
func (d *Devices) Add(name string, now time.Time) (Device, string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	list, err := d.load()
	if err != nil {
		return Device{}, "", err
	}
	token := randomString(32)
	dev := Device{ID: randomHex(4), Name: text.OneLine(name, 60), Hash: hashToken(token), Created: now.UTC()}
	if dev.Name == "" {
		dev.Name = "a browser"
	}
	list = append(list, dev)
	if err := privfile.WriteJSON(d.path(), devicesFile{Devices: list}); err != nil {
		return Device{}, "", err
	}
	return dev, token, nil
}

// Revoke removes the device whose id is id.
func (d *Devices) Revoke(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	list, err := d.load()
	if err != nil {
		return err
	}
	out := list[:0]
	found := false
	for _, dev := range list {
		if dev.ID == id {
			found = true
			continue
		}
		out = append(out, dev)
	}
	if !found {
		return fmt.Errorf("no paired device %q (see `mew serve devices`)", text.OneLine(id, 40))
	}
	return privfile.WriteJSON(d.path(), devicesFile{Devices: out})
}

// Check returns the device whose token is token.
func (d *Devices) Check(token string) (Device, bool) {
	if token == "" || len(token) > 128 {
		return Device{}, false
	}
	list, err := d.List()
	if err != nil {
		return Device{}, false
	}
	h := hashToken(token)
	for _, dev := range list {
		if subtle.ConstantTimeCompare([]byte(dev.Hash), []byte(h)) == 1 {
			return dev, true
		}
	}
	return Device{}, false
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("web: no randomness: " + err.Error()) // crypto/rand never fails on Linux or macOS
	}
	return b
}

func randomString(n int) string { return base64.RawURLEncoding.EncodeToString(randomBytes(n)) }
func randomHex(n int) string    { return hex.EncodeToString(randomBytes(n)) }

// csrfFor is the CSRF token of a device: an HMAC of its token's hash under
// the server's own key, so it is bound to the device and to this run of
// the server, and needs no storage.
func csrfFor(key []byte, dev Device) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("csrf\x00" + dev.Hash))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// pairAlphabet has no look-alike characters (0/O, 1/I/L), for a code read
// off a terminal and typed on a phone.
const pairAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// PairCodeLen is the pairing code's length: 31^8 ≈ 8.5e11 codes, and
// MaxPairTries wrong tries burn the code.
const PairCodeLen = 8

// MaxPairTries is how many wrong codes a pairing code survives: the next
// wrong try after them ends it, and a new one comes only after
// PairCooldown.
const MaxPairTries = 5

// PairCooldown is how long pairing stays shut after a code was burned.
const PairCooldown = 30 * time.Second

// PairLifetime is how long a pairing code is good for.
const PairLifetime = 15 * time.Minute

// Pairing holds the one pairing code in force. A code pairs one device;
// then, or after MaxPairTries wrong tries, or when it expires, a new one is
// made (OnCode says it, on the terminal) once the cooldown after a burned
// code is over.
type Pairing struct {
	// OnCode is called with each new code (under the lock: keep it short).
	OnCode func(code string, expires time.Time)

	mu       sync.Mutex
	code     string
	expires  time.Time
	wrong    int
	shutTill time.Time
}

func newCode() string {
	b := randomBytes(PairCodeLen)
	out := make([]byte, PairCodeLen)
	for i, c := range b {
		// 256 % 31 leaves a bias of under 1/8 on a few characters: a
		// fraction of a bit of the code's 39.
		out[i] = pairAlphabet[int(c)%len(pairAlphabet)]
	}
	return string(out)
}

// Code returns the code in force, making one when there is none (and
// pairing is not shut).
func (p *Pairing) Code(now time.Time) (string, time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.current(now)
}

func (p *Pairing) current(now time.Time) (string, time.Time, bool) {
	if now.Before(p.shutTill) {
		return "", p.shutTill, false
	}
	if p.code == "" || !now.Before(p.expires) {
		p.code, p.expires, p.wrong = newCode(), now.Add(PairLifetime), 0
		if p.OnCode != nil {
			p.OnCode(p.code, p.expires)
		}
	}
	return p.code, p.expires, true
}

// ErrPairingShut: too many wrong codes; pairing opens again after the
// cooldown, with a new code.
var ErrPairingShut = errors.New("too many wrong codes: pairing is shut for a while; a new code will be shown where `mew serve` runs")

// ErrWrongCode: the code is not the one in force.
var ErrWrongCode = errors.New("that is not the pairing code")

// Try checks a code typed by a person. A right code is used up (the next
// device gets a new one).
func (p *Pairing) Try(code string, now time.Time) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	want, _, open := p.current(now)
	if !open {
		return ErrPairingShut
	}
	code = strings.ToUpper(strings.Join(strings.Fields(code), ""))
	code = strings.ReplaceAll(code, "-", "")
	if len(code) == len(want) && subtle.ConstantTimeCompare([]byte(code), []byte(want)) == 1 {
		p.code = ""
		return nil
	}
	p.wrong++
	if p.wrong >= MaxPairTries {
		// Burned: no code at all until the cooldown ends.
		p.code, p.shutTill = "", now.Add(PairCooldown)
	}
	return ErrWrongCode
}

// nonces are the answer buttons' single-use tickets: each rendered button
// names one, bound to the device it was shown to and to the session,
// choice and label shown.
type ticket struct {
	device  string // the device's hash
	id      string
	n       int
	label   string
	expires time.Time
}

// maxTickets bounds the tickets kept: the oldest go first.
const maxTickets = 4096

// ticketLife is how long a shown button stays good.
const ticketLife = 30 * time.Minute

type tickets struct {
	mu    sync.Mutex
	m     map[string]ticket
	order []string
	// shown is the unused ticket of each button (device, session, its
	// prompt's start, choice, label): a page drawn again shows the same
	// one, so an unchanged row is the same HTML (rowCache).
	shown map[string]string
}

func (tk ticket) key(since time.Time) string {
	return tk.device + "\x00" + tk.id + "\x00" + since.UTC().Format(time.RFC3339Nano) + "\x00" + strconv.Itoa(tk.n) + "\x00" + tk.label
}

// issue returns the ticket of a button shown for the prompt that started
// at since: the one already shown when it is unused and has a while to go,
// else a new one.
func (t *tickets) issue(tk ticket, since time.Time, now time.Time) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m, t.shown = map[string]ticket{}, map[string]string{}
	}
	k := tk.key(since)
	if n, ok := t.shown[k]; ok {
		if old, live := t.m[n]; live && old.expires.Sub(now) > ticketLife/2 {
			return n
		}
		delete(t.shown, k)
	}
	for len(t.order) >= maxTickets {
		delete(t.m, t.order[0])
		t.order = t.order[1:]
	}
	if len(t.shown) >= maxTickets {
		clear(t.shown) // only a cache: the tickets stay good
	}
	n := randomString(18)
	t.m[n] = tk
	t.order = append(t.order, n)
	t.shown[k] = n
	return n
}

// take uses up the ticket named n, for device: a second take of the same
// ticket, another device's, or an expired one fails.
func (t *tickets) take(n, device string, now time.Time) (ticket, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tk, ok := t.m[n]
	if !ok {
		return ticket{}, false
	}
	delete(t.m, n)
	if tk.device != device || !now.Before(tk.expires) {
		return ticket{}, false
	}
	return tk, true
}
