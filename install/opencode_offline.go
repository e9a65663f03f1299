package install

// OpenCode 1.18 installs @opencode-ai/plugin into every configuration
// folder at start (Npm.install), and when any plugin is there it waits for
// that install before it draws: with the registry unreachable, 73 s at
// every start (refused) or no screen at all (dropped). Its check, read in
// the 1.18.33 binary and measured: no `node_modules` → install; else every
// dependency of package.json plus @opencode-ai/plugin must be named in
// package-lock.json's packages[""], or it installs. Mew's plugin imports
// nothing, so `mew install` makes that check pass without the network: an
// empty node_modules when there is none, and a lock naming the package when
// there is no lock and package.json asks for nothing else (a person's own
// dependencies are theirs to install). Uninstall removes exactly what Mew
// made: the lock only while it is byte for byte Mew's, node_modules only
// while it holds only Mew's mark.

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mew-dev/mew/store"
)

// openCodePluginPackage is the dependency OpenCode adds to each
// configuration folder.
const openCodePluginPackage = "@opencode-ai/plugin"

// openCodeLock is the package-lock.json Mew writes: the root names
// @opencode-ai/plugin, so OpenCode's dependency check passes offline.
var openCodeLock = []byte(`{
  "name": "opencode-config",
  "lockfileVersion": 3,
  "requires": true,
  "packages": {
    "": {
      "dependencies": {
        "` + openCodePluginPackage + `": "*"
      }
    }
  }
}
`)

// offlineFiles is what Mew would write in OpenCode's configuration folder
// cfg so that it starts without the network.
type offlineFiles struct {
	modules, lock string
	makeModules   bool // node_modules is missing
	writeLock     bool // no lock, and package.json needs nothing else
	// needsNetwork: OpenCode will still install at start, for dependencies
	// of the person's own (their package.json), which Mew leaves alone.
	needsNetwork bool
}

func planOffline(cfg string) (offlineFiles, error) {
	f := offlineFiles{modules: filepath.Join(cfg, "node_modules"), lock: filepath.Join(cfg, "package-lock.json")}
	if _, err := os.Lstat(f.modules); errors.Is(err, fs.ErrNotExist) {
		f.makeModules = true
	} else if err != nil {
		return f, &FileError{Path: f.modules, Err: err}
	}
	wanted, err := packageDeps(filepath.Join(cfg, "package.json"))
	if err != nil {
		return f, err
	}
	locked, lockExists, err := lockDeps(f.lock)
	if err != nil {
		return f, err
	}
	wanted[openCodePluginPackage] = true
	for name := range wanted {
		if locked[name] {
			continue
		}
		if lockExists || len(wanted) > 1 {
			f.needsNetwork = true // a lock or dependencies of the person's own: theirs
			return f, nil
		}
		f.writeLock = true
	}
	return f, nil
}

// packageDeps lists every dependency a package.json names (none when there
// is no file). A file that does not parse is OpenCode's business: it reads
// it as {} too.
func packageDeps(path string) (map[string]bool, error) {
	out := map[string]bool{}
	data, err := readSmall(path)
	if err != nil || data == nil {
		return out, err
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(data, &p) != nil {
		return out, nil
	}
	for _, k := range []string{"dependencies", "devDependencies", "peerDependencies", "optionalDependencies"} {
		var deps map[string]any
		if json.Unmarshal(p[k], &deps) == nil {
			for name := range deps {
				out[name] = true
			}
		}
	}
	return out, nil
}

// lockDeps lists the dependencies package-lock.json's root names.
func lockDeps(path string) (map[string]bool, bool, error) {
	out := map[string]bool{}
	data, err := readSmall(path)
	if err != nil || data == nil {
		return out, false, err
	}
	var l struct {
		Packages map[string]map[string]json.RawMessage `json:"packages"`
	}
	if json.Unmarshal(data, &l) != nil {
		return out, true, nil
	}
	root := l.Packages[""]
	for _, k := range []string{"dependencies", "devDependencies", "peerDependencies", "optionalDependencies"} {
		var deps map[string]any
		if json.Unmarshal(root[k], &deps) == nil {
			for name := range deps {
				out[name] = true
			}
		}
	}
	return out, true, nil
}

// readSmall reads a regular file of at most maxPlugin bytes; nil when there
// is none.
func readSmall(path string) ([]byte, error) {
	fi, err := lstatFile(path)
	switch {
	case err != nil || fi == nil:
		return nil, err
	case !fi.Mode().IsRegular() || fi.Size() > maxPlugin:
		return []byte("{}"), nil // not something Mew reads or writes
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	return data, nil
}

// writeOffline makes OpenCode's dependency check pass in cfg.
func writeOffline(cfg string) error {
	f, err := planOffline(cfg)
	if err != nil {
		return err
	}
	if f.makeModules {
		if err := os.MkdirAll(f.modules, 0o755); err != nil {
			return &FileError{Path: f.modules, Err: err}
		}
		if err := os.WriteFile(filepath.Join(f.modules, modulesMark), nil, 0o644); err != nil {
			return &FileError{Path: f.modules, Err: err}
		}
	}
	if f.writeLock {
		if err := store.WriteFileAtomic(f.lock, openCodeLock, 0o644); err != nil {
			return &FileError{Path: f.lock, Err: err}
		}
	}
	return nil
}

// removeOffline takes out what writeOffline made and nobody changed since.
func removeOffline(cfg string) {
	lock := filepath.Join(cfg, "package-lock.json")
	if data, _ := readSmall(lock); bytes.Equal(data, openCodeLock) {
		os.Remove(lock)
	}
	modules := filepath.Join(cfg, "node_modules")
	if ents, err := os.ReadDir(modules); err == nil && len(ents) == 1 && ents[0].Name() == modulesMark {
		os.Remove(filepath.Join(modules, modulesMark))
		os.Remove(modules) // only ever removes an empty folder
	}
}

// modulesMark is the file in a node_modules Mew made: uninstall removes the
// folder only while nothing else is in it.
const modulesMark = ".mew-made-this-folder"
