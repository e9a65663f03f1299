// Command conformance writes e2e/MATRIX.md, the conformance matrix of
// e2e/matrix (agents × scenario classes × modes, each cell the e2e tests
// that walk it, n/a with the reason, or a gap).
//
//	go run ./tools/conformance   # from the repository root
package main

import (
	"fmt"
	"os"

	"github.com/mew-dev/mew/e2e/matrix"
)

func main() {
	if err := os.WriteFile("e2e/MATRIX.md", []byte(matrix.Markdown()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
}
