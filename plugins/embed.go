// Package plugins holds Mew's agent plugins as the repository publishes
// them: plugins/mew is the Claude Code plugin mew@mew (the repository's
// .claude-plugin/marketplace.json lists it) and, with .codex-plugin, the
// Codex plugin of the same name. Their hooks run hooks/mew-hook.sh, which
// runs the installed mew-hook. `mew install --plugin` writes this same tree
// (FS) where Claude Code loads it by itself, so the files people install
// from the repository and from mew are the same bytes.
package plugins

import "embed"

// FS is the plugins folder; mew/ is the mew plugin.
//
//go:embed all:mew
var FS embed.FS

// Mew is the mew plugin's folder in FS.
const Mew = "mew"
