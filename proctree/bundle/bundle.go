// Package bundle reads an application bundle's identity from its
// Contents/Info.plist. It is its own package so the hook, which imports
// proctree, never links the plist library.
package bundle

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"howett.net/plist"
)

// maxInfoPlist bounds what is read of an Info.plist; real ones are a few
// kilobytes.
const maxInfoPlist = 1 << 20

// ID returns the CFBundleIdentifier of the bundle at appPath. A directory
// without Contents/Info.plist is not a bundle and gives an error.
func ID(appPath string) (string, error) {
	info, err := read(appPath)
	if err != nil {
		return "", err
	}
	if info.ID == "" {
		return "", errors.New(appPath + ": Info.plist has no CFBundleIdentifier")
	}
	return info.ID, nil
}

// Version returns the CFBundleShortVersionString of the bundle at appPath
// ("3.5.4"), "" when it has none.
func Version(appPath string) (string, error) {
	info, err := read(appPath)
	return info.Version, err
}

type info struct {
	ID      string `plist:"CFBundleIdentifier"`
	Version string `plist:"CFBundleShortVersionString"`
}

func read(appPath string) (info, error) {
	f, err := os.Open(filepath.Join(appPath, "Contents", "Info.plist"))
	if err != nil {
		return info{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxInfoPlist+1))
	if err != nil {
		return info{}, err
	}
	if len(data) > maxInfoPlist {
		return info{}, fmt.Errorf("%s: Info.plist larger than %d bytes", appPath, maxInfoPlist)
	}
	var in info
	if _, err := plist.Unmarshal(data, &in); err != nil {
		return info{}, fmt.Errorf("%s: unreadable Info.plist: %w", appPath, err)
	}
	return in, nil
}
