// Package weblink keeps the web board's public address ($MEW_HOME/serve.json,
// written by `mew serve --public-url`), so that the alert sinks (package
// notify, in whichever Mew sends) can carry a link to a session's page. The
// link grants nothing by itself: the page needs a paired device.
package weblink

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mew-dev/mew/internal/privfile"
)

// Name is the file in $MEW_HOME.
const Name = "serve.json"

type file struct {
	PublicURL string `json:"public_url,omitempty"`
}

// Check says what is wrong with a public URL: it must be http(s), with a
// host, and nothing after its path.
func Check(raw string) (*url.URL, error) {
	if len(raw) > 512 {
		return nil, errors.New("the public URL is too long")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("%q is not a public URL (https://host[:port][/path], no query)", raw)
	}
	return u, nil
}

// Save keeps base as the public URL ("" forgets it).
func Save(home, base string) error {
	if base != "" {
		if _, err := Check(base); err != nil {
			return err
		}
	}
	return privfile.WriteJSON(filepath.Join(home, Name), file{PublicURL: base})
}

// Load is the public URL, "" when none is set (or the file is unreadable:
// alerts then go without a link).
func Load(home string) string {
	// O_NONBLOCK: a FIFO in its place must not hang an alert.
	f, err := os.OpenFile(filepath.Join(home, Name), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	b, err := io.ReadAll(io.LimitReader(f, 8<<10))
	if err != nil {
		return ""
	}
	var v file
	if json.Unmarshal(b, &v) != nil {
		return ""
	}
	if _, err := Check(v.PublicURL); err != nil {
		return ""
	}
	return v.PublicURL
}

// Session is the link to session id's page under base, "" without a base.
func Session(base, id string) string {
	if base == "" || id == "" {
		return ""
	}
	return strings.TrimRight(base, "/") + "/s?id=" + url.QueryEscape(id)
}
