//go:build !darwin

package main

// Off macOS `mew` alone opens the terminal board.
const defaultCommand, defaultWhat = "watch", "terminal board"
