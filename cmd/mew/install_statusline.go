package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/mew-dev/mew/install"
)

// offerStatusline decides whether `mew install` makes Mew Claude Code's
// statusline source: --statusline says yes; otherwise the person is asked,
// only when Mew runs in a terminal, and the answer is no unless they say
// yes. Never asked again once installed.
func offerStatusline(yes, dry bool, env install.Env, stdout io.Writer) bool {
	if yes {
		return true
	}
	if dry || install.StatuslineInstalled(env) || !term.IsTerminal(int(os.Stdin.Fd())) || !term.IsTerminal(int(os.Stdout.Fd())) {
		return false
	}
	fmt.Fprint(stdout, "Show Claude Code's quota (5 h, weekly), context and cost in Mew? Mew becomes Claude Code's statusline\n"+
		"command and runs your own statusline command unchanged. [y/N] ")
	line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes"
}

func installStatusline(env install.Env, dry bool, stdout, stderr io.Writer) bool {
	rep, err := install.InstallStatusline(install.Options{Env: env, DryRun: dry})
	if err != nil {
		fmt.Fprintf(stderr, "mew install: statusline: %v\n", err)
		return false
	}
	switch {
	case rep.Already:
		fmt.Fprintf(stdout, "Mew's statusline source is already in %s.\n", rep.Settings)
	case dry:
		fmt.Fprintf(stdout, "Would make Mew's statusline source the \"statusLine\" of %s.\n", rep.Settings)
	default:
		fmt.Fprintf(stdout, "Made Mew's statusline source the \"statusLine\" of %s; `mew uninstall` puts yours back exactly.\n", rep.Settings)
	}
	if rep.Command != "" {
		fmt.Fprintf(stdout, "It runs your statusline command as before: %s\n", rep.Command)
	}
	return true
}

func uninstallStatusline(env install.Env, dry bool, stdout, stderr io.Writer) bool {
	rep, err := install.UninstallStatusline(install.Options{Env: env, DryRun: dry})
	if err != nil {
		fmt.Fprintf(stderr, "mew uninstall: statusline: %v\n", err)
		return false
	}
	switch {
	case rep.NotOurs:
		fmt.Fprintf(stdout, "The \"statusLine\" of %s is no longer Mew's; left as it is.\n", rep.Settings)
	case rep.Restored && dry:
		fmt.Fprintf(stdout, "Would put your \"statusLine\" back in %s.\n", rep.Settings)
	case rep.Restored:
		fmt.Fprintf(stdout, "Put your \"statusLine\" back in %s.\n", rep.Settings)
	}
	return true
}
