// Command bundle-check validates Mew's Info.plist and the layout of a
// Mew.app bundle, and can assemble that bundle. `make app` (macOS) and
// `make bundle-check` (a dry run on Linux with Linux binaries) both assemble
// through it, so the layout checked on Linux is the one shipped.
//
// Usage:
//
//	bundle-check [-plist Info.plist]                     check the plist only
//	bundle-check [-plist Info.plist] Mew.app             check a bundle
//	bundle-check -assemble -mew BIN -hook BIN [-icon assets/Mew.icns] Mew.app
//	                                                     build the bundle, then check it
//	bundle-check -macho arm64,amd64 Mew.app              also require Mach-O binaries
//	                                                     holding these architectures
//	bundle-check -cask adhoc|notarized [-sha256 HEX] mew.rb  print the cask for a build
//	bundle-check -notarize -profile P [-dry] ZIP         xcrun notarytool submit --wait,
//	                                                     failing with Apple's log unless Accepted
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("bundle-check", flag.ContinueOnError)
	flags.SetOutput(stderr)
	plistPath := flags.String("plist", "Info.plist", "the Info.plist to check (and to put in the bundle)")
	doAssemble := flags.Bool("assemble", false, "build the bundle at APP first (replacing an earlier Mew.app there)")
	mewBin := flags.String("mew", "", "with -assemble: the mew binary")
	hookBin := flags.String("hook", "", "with -assemble: the mew-hook binary")
	icon := flags.String("icon", "assets/Mew.icns", "with -assemble: the .icns icon")
	machoArches := flags.String("macho", "", "comma-separated GOARCH values every executable must hold as Mach-O")
	doNotarize := flags.Bool("notarize", false, "submit ZIP to Apple's notary service and wait for the verdict")
	profile := flags.String("profile", "", "with -notarize: the notarytool keychain profile")
	dry := flags.Bool("dry", false, "with -notarize: print the commands instead")
	caskMode := flags.String("cask", "", "print the cask from the template for an adhoc or a notarized build")
	caskSum := flags.String("sha256", "", "with -cask: the zip's SHA-256")
	xcrun := flags.String("xcrun", "xcrun", "with -notarize: the xcrun program")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if *caskMode != "" {
		return printCask(*caskMode, *caskSum, flags.Args(), stdout, stderr)
	}
	if *doNotarize {
		if flags.NArg() != 1 || *profile == "" {
			fmt.Fprintln(stderr, "bundle-check: -notarize needs -profile and one zip")
			return 2
		}
		return notarize(*xcrun, *profile, flags.Arg(0), *dry, stdout, stderr)
	}
	if flags.NArg() > 1 {
		fmt.Fprintln(stderr, "bundle-check: give at most one bundle path")
		return 2
	}
	app := flags.Arg(0)
	if (*doAssemble || *machoArches != "") && app == "" {
		fmt.Fprintln(stderr, "bundle-check: -assemble and -macho need a bundle path (…/Mew.app)")
		return 2
	}
	var arches []string
	if *machoArches != "" {
		arches = strings.Split(*machoArches, ",")
	}

	if *doAssemble {
		if *mewBin == "" || *hookBin == "" {
			fmt.Fprintln(stderr, "bundle-check: -assemble needs -mew and -hook")
			return 2
		}
		err := assemble(assembly{Plist: *plistPath, Icon: *icon, Mew: *mewBin, Hook: *hookBin, App: app})
		var invalid *invalidPlistError
		if errors.As(err, &invalid) {
			report(stderr, *plistPath, invalid.problems)
			return 1
		}
		if err != nil {
			fmt.Fprintln(stderr, "bundle-check:", err)
			return 1
		}
	}

	var problems []string
	subject := app
	if app == "" {
		subject = *plistPath
		data, err := os.ReadFile(*plistPath)
		if err != nil {
			fmt.Fprintln(stderr, "bundle-check:", err)
			return 1
		}
		_, problems = checkPlist(data)
	} else {
		problems = checkBundle(app, arches)
	}
	if len(problems) > 0 {
		report(stderr, subject, problems)
		return 1
	}
	fmt.Fprintf(stdout, "bundle-check: %s ok\n", subject)
	return 0
}

func printCask(mode, sum string, args []string, stdout, stderr io.Writer) int {
	if (mode != "adhoc" && mode != "notarized") || len(args) != 1 {
		fmt.Fprintln(stderr, "bundle-check: -cask adhoc|notarized [-sha256 HEX] TEMPLATE")
		return 2
	}
	data, err := os.ReadFile(args[0])
	if err == nil {
		var cask string
		if cask, err = caskFor(string(data), mode == "notarized", sum); err == nil {
			fmt.Fprint(stdout, cask)
			return 0
		}
	}
	fmt.Fprintln(stderr, "bundle-check:", err)
	return 1
}

func report(w io.Writer, subject string, problems []string) {
	for _, p := range problems {
		fmt.Fprintf(w, "bundle-check: %s: %s\n", subject, p)
	}
}
