// Command mew-hook is the hook Claude Code runs for every event; see hookbin.
package main

import (
	"os"

	"github.com/mew-dev/mew/hookbin"
)

func main() {
	hookbin.Main()
	os.Exit(0)
}
