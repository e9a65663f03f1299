package main

import (
	"debug/macho"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mew-dev/mew/internal/icns"
)

// What Contents/ of a Mew.app may hold: ours, plus what codesign adds.
var allowedContents = map[string]bool{
	"Info.plist": true, "PkgInfo": true, "MacOS": true, "Resources": true,
	"_CodeSignature": true, "CodeResources": true,
}

// The icon sizes Finder, the menu bar and notifications ask for most.
var requiredIconTypes = []string{"icp4", "ic07", "ic09", "ic10"}

var machoCPU = map[string]macho.Cpu{"arm64": macho.CpuArm64, "amd64": macho.CpuAmd64}

// checkBundle lists everything wrong with the bundle at app. With arches,
// every executable must be Mach-O holding each of them.
func checkBundle(app string, arches []string) []string {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	if filepath.Ext(filepath.Clean(app)) != ".app" {
		add("a bundle's name must end in .app")
	}
	contents := filepath.Join(app, "Contents")
	data, err := os.ReadFile(filepath.Join(contents, "Info.plist"))
	if err != nil {
		return append(problems, "no Contents/Info.plist: "+err.Error())
	}
	info, plistProblems := checkPlist(data)
	for _, p := range plistProblems {
		add("Contents/Info.plist: %s", p)
	}
	if info == nil {
		return problems
	}

	entries, err := os.ReadDir(contents)
	if err != nil {
		return append(problems, err.Error())
	}
	for _, e := range entries {
		if !allowedContents[e.Name()] {
			add("unexpected Contents/%s", e.Name())
		}
	}

	executable, _ := info["CFBundleExecutable"].(string)
	for _, name := range []string{executable, HookExecutable} {
		if name == "" {
			continue
		}
		rel := filepath.Join("Contents", "MacOS", name)
		fi, err := os.Stat(filepath.Join(app, rel))
		switch {
		case err != nil:
			add("no %s: %v", rel, err)
			continue
		case !fi.Mode().IsRegular():
			add("%s is not a regular file", rel)
			continue
		case fi.Mode().Perm()&0o111 != 0o111:
			add("%s is not executable by everyone (mode %v)", rel, fi.Mode().Perm())
		}
		if len(arches) > 0 {
			if err := checkMachO(filepath.Join(app, rel), arches); err != nil {
				add("%s: %v", rel, err)
			}
		}
	}

	if icon := iconResource(info); icon != "" {
		rel := filepath.Join("Contents", "Resources", icon)
		if err := checkIcon(filepath.Join(app, rel)); err != nil {
			add("%s: %v", rel, err)
		}
	}
	return problems
}

func checkIcon(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	entries, err := icns.Decode(data)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, e := range entries {
		if _, isPNG := icns.PNGSizes[e.Type]; !isPNG {
			continue // other types (TOC, legacy bitmaps) are macOS's business
		}
		if _, err := icns.CheckPNG(e); err != nil {
			return err
		}
		have[e.Type] = true
	}
	var missing []string
	for _, t := range requiredIconTypes {
		if !have[t] {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("icon lacks the %s entries", strings.Join(missing, ", "))
	}
	return nil
}

// checkMachO requires path to be a Mach-O executable (thin or universal)
// holding every one of arches.
func checkMachO(path string, arches []string) error {
	have := map[macho.Cpu]bool{}
	if fat, err := macho.OpenFat(path); err == nil {
		for _, a := range fat.Arches {
			have[a.Cpu] = true
		}
		fat.Close()
	} else if f, err := macho.Open(path); err == nil {
		if f.Type != macho.TypeExec {
			f.Close()
			return fmt.Errorf("Mach-O file of type %v, want an executable", f.Type)
		}
		have[f.Cpu] = true
		f.Close()
	} else {
		return errors.New("not a Mach-O executable")
	}
	var missing []string
	for _, a := range arches {
		cpu, ok := machoCPU[a]
		if !ok {
			return fmt.Errorf("unknown architecture %q", a)
		}
		if !have[cpu] {
			missing = append(missing, a)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("lacks %s", strings.Join(missing, ", "))
	}
	return nil
}

// assembly names the inputs of a bundle and where it goes.
type assembly struct {
	Plist, Icon, Mew, Hook string
	App                    string // …/Mew.app
}

type invalidPlistError struct{ problems []string }

func (e *invalidPlistError) Error() string {
	return "invalid Info.plist: " + strings.Join(e.problems, "; ")
}

// assemble lays out a fresh bundle:
//
//	Mew.app/Contents/Info.plist
//	Mew.app/Contents/PkgInfo
//	Mew.app/Contents/MacOS/<CFBundleExecutable>   (the mew binary)
//	Mew.app/Contents/MacOS/mew-hook
//	Mew.app/Contents/Resources/<CFBundleIconFile>
//
// An earlier bundle at the same path is replaced; any other directory
// there is left alone and is an error.
func assemble(a assembly) error {
	data, err := os.ReadFile(a.Plist)
	if err != nil {
		return err
	}
	info, problems := checkPlist(data)
	if len(problems) > 0 {
		return &invalidPlistError{problems}
	}
	if filepath.Ext(filepath.Clean(a.App)) != ".app" {
		return fmt.Errorf("%s: a bundle's name must end in .app", a.App)
	}
	if _, err := os.Lstat(a.App); err == nil {
		if _, err := os.Stat(filepath.Join(a.App, "Contents", "Info.plist")); err != nil {
			return fmt.Errorf("%s exists and is not an app bundle; not replacing it", a.App)
		}
		if err := os.RemoveAll(a.App); err != nil {
			return err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}

	contents := filepath.Join(a.App, "Contents")
	for _, dir := range []string{"MacOS", "Resources"} {
		if err := os.MkdirAll(filepath.Join(contents, dir), 0o755); err != nil {
			return err
		}
	}
	files := []struct {
		src, dst string
		mode     fs.FileMode
	}{
		{a.Plist, "Info.plist", 0o644},
		{a.Mew, filepath.Join("MacOS", info["CFBundleExecutable"].(string)), 0o755},
		{a.Hook, filepath.Join("MacOS", HookExecutable), 0o755},
		{a.Icon, filepath.Join("Resources", iconResource(info)), 0o644},
	}
	for _, f := range files {
		if err := copyFile(f.src, filepath.Join(contents, f.dst), f.mode); err != nil {
			return err
		}
	}
	// The classic type/creator file; Finder still reads it.
	return os.WriteFile(filepath.Join(contents, "PkgInfo"), []byte("APPL????"), 0o644)
}

func copyFile(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chmod(dst, mode) // the umask must not take executable bits away
}
