//go:build tools

// Package deps pins the libraries the design card requires until the code
// that uses each lands (go mod tidy keeps what a build tag imports).
package deps

import (
	_ "github.com/charmbracelet/bubbletea"
	_ "github.com/charmbracelet/lipgloss"
	_ "github.com/fsnotify/fsnotify"
	_ "github.com/progrium/darwinkit/macos/appkit"
	_ "github.com/tidwall/gjson"
	_ "github.com/tidwall/sjson"
	_ "howett.net/plist"
)
