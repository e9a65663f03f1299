// Package resident gives back what a long-running Mew keeps resident only
// because it once started: the pages of its own code and constant data
// that start-up touched (the rules compiled, the flags parsed, every
// source's first read). A watcher runs all day, idle; the pages it uses
// from then on come back on their own (a minor fault: they are still in
// the page cache).
package resident
