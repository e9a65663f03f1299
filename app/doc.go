// Package app is the macOS menu-bar app: status item, floating panel, timer,
// login item and notifications, all in _darwin.go files that only translate
// the board's finished frames and the jump runner's plans into AppKit calls.
// The decisions — what is shown, when the panel opens, what a click hits —
// live in the pure, tested package board, and what a click does to a
// session (find it, jump, answer) in board/act, which the terminal board
// shares; the app's own decisions (controller's effects, the menu, the
// panel's geometry, the timer's run policy, the login item, notifications,
// the status icon) are in this package's files without a build tag, tested
// on every platform. It exports only Run, what cmd/mew calls.
package app
