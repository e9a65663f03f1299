// Command mew-hook is the hook Claude Code runs for every event; see hookbin.
// With --statusline it is Claude Code's statusline command instead.
package main

import (
	"os"

	"github.com/mew-dev/mew/hookbin"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == hookbin.StatuslineFlag {
		os.Exit(hookbin.Statusline())
	}
	hookbin.Main()
	os.Exit(0)
}
