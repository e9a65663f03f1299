#!/usr/bin/env bash
# Makes the darwinkit every macOS build of mew uses: the module's source
# copied from the Go module cache into a scratch folder and fixed there
# with this folder's patches (nothing of darwinkit is committed), and a
# module file for `go build -modfile` that replaces darwinkit with that
# copy (the repository's go.mod is never touched). `make gnustep-ui`
# applies the same patches (tools/gnustep/build.sh), so the harness runs
# the closures as the Mac build makes them.
#
# ffi-cif.patch: darwinkit v0.5.0's PrepCIF hands libffi a pointer to its
# caller's argument-type slice, which the CIF keeps for as long as it
# lives (every Go method AppKit calls: delegates, actions, drawRect:). Go
# 1.25+ may put that slice on the caller's stack, and even on the heap
# nothing in Go keeps it alive once C wrote the pointer: the first call from
# Objective-C reads garbage types (found on GNUstep, issue 36: libffi
# aborted; with the slice forced onto the heap instead, the collector
# found the freed pointer).
#
# Usage: packaging/darwinkit/prepare.sh DIR
#   writes DIR/darwinkit, DIR/darwin.mod and DIR/darwin.sum
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:?usage: prepare.sh DIR}
go=${GO:-go}
mkdir -p "$out"
out=$(cd "$out" && pwd)

cd "$repo"
dkver=$($go list -m -f '{{.Version}}' github.com/progrium/darwinkit)
$go mod download github.com/progrium/darwinkit
src="$($go env GOMODCACHE)/github.com/progrium/darwinkit@$dkver"
[ -d "$src" ] || { echo "darwinkit: $src not found" >&2; exit 1; }

dk="$out/darwinkit"
rm -rf "$dk.new"
cp -r "$src" "$dk.new"
chmod -R u+w "$dk.new"
for p in "$here"/*.patch; do
	(cd "$dk.new" && patch -s -p1 <"$p") || { echo "darwinkit: $(basename "$p") does not apply to $dkver" >&2; exit 1; }
done
# Replace the copy only when it changed: Go's build cache keys on
# contents, and an unchanged tree keeps darwinkit's slow cgo packages.
if [ -d "$dk" ] && diff -rq "$dk" "$dk.new" >/dev/null 2>&1; then
	rm -rf "$dk.new"
else
	rm -rf "$dk" && mv "$dk.new" "$dk"
fi
cp go.mod "$out/darwin.mod"
printf '\nreplace github.com/progrium/darwinkit => %s\n' "$dk" >>"$out/darwin.mod"
cp go.sum "$out/darwin.sum"
