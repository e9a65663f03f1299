#!/usr/bin/env bash
# Builds mew against GNUstep (make gnustep-ui; ARCHITECTURE.md, "The app on
# GNUstep"). darwinkit v0.5.0 is copied from the Go module cache into a
# scratch folder and changed there (nothing of darwinkit is committed: only
# this script, darwinkit.patch and the shim files); the repository is
# copied next to it with app/'s darwin files re-tagged `darwin || gnustep`,
# and mew is built with `-tags gnustep` against the copy (a replace in the
# scratch go.mod, never the repository's).
#
# The scratch folder is stable ($MEW_GNUSTEP_DIR, default
# $XDG_CACHE_HOME/mew-gnustep) and the build is -trimpath, so Go's build
# cache keeps darwinkit's slow cgo packages between runs.
#
# Usage: tools/gnustep/build.sh OUT   (writes the binary to OUT)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:?usage: build.sh OUT}
go=${GO:-go}
scratch=${MEW_GNUSTEP_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mew-gnustep}
dkver=v0.5.0

for cmd in clang gnustep-config; do
	command -v "$cmd" >/dev/null || { echo "gnustep build: $cmd is missing (apt-get install clang libgnustep-gui-dev)" >&2; exit 3; }
done

(cd "$repo" && $go mod download github.com/progrium/darwinkit)
src="$($go env GOMODCACHE)/github.com/progrium/darwinkit@$dkver"
[ -d "$src" ] || { echo "gnustep build: $src not found" >&2; exit 1; }

mkdir -p "$scratch"
# One build at a time in a scratch folder: two runs on one machine (two
# checkouts' make test) would copy over each other's darwinkit.
exec 9>"$scratch/.lock"
flock 9
dk="$scratch/darwinkit"
rm -rf "$dk.new"
cp -r "$src" "$dk.new"
chmod -R u+w "$dk.new"
(
	cd "$dk.new"
	# No frameworks: the libraries come from CGO_LDFLAGS below.
	find . -name '*.go' -exec sed -i '/#cgo LDFLAGS: -framework/d' {} +
	sed -i 's|<ffi/ffi.h>|<ffi.h>|' objc/ffi/ffi.m objc/ffi/ffi.go
	# libobjc4 has no objc/NSObject.h; GNUstep's NSObject is Foundation's.
	grep -rl '<objc/NSObject.h>' --include='*.m' . | xargs sed -i 's|<objc/NSObject.h>|<Foundation/NSObject.h>|'
	# The protocol lists name every macOS protocol: most are not in
	# GNUstep. The three delegates Mew sets are registered by the shim's
	# class (_shim/appkit/gnustep_protocols.m) instead.
	for f in macos/*/protocols.gen.m; do
		fn=$(sed -n 's/^void \(import[A-Za-z]*Protocols\)().*/\1/p' "$f")
		printf 'void %s(void) {}\n' "$fn" >"$f"
	done
	# Clang's GCC-runtime mode does not synthesize properties: the goID
	# properties become an ivar and two accessors.
	for f in objc/protocol.m objc/runtime_utils.m helper/action/action_handler.m; do
		sed -i -e 's/^@interface \([A-Za-z]*\) : NSObject$/@interface \1 : NSObject { uintptr_t _goID; }/' \
			-e 's/^@property (assign) uintptr_t goID;$/- (uintptr_t)goID;\n- (void)setGoID:(uintptr_t)v;/' \
			-e 's/^@implementation \([A-Za-z]*\)$/@implementation \1\n- (uintptr_t)goID { return _goID; }\n- (void)setGoID:(uintptr_t)v { _goID = v; }/' "$f"
	done
	# No object subscripting in the GCC runtime mode.
	sed -i 's/(Byte \*)/(uint8_t *)/' objc/type_convertion.m
	sed -i 's/id vp = result_\[kp\];/id vp = [result_ objectForKey:kp];/' objc/type_convertion.m
	# What libobjc4 lacks of Apple's runtime API (_shim/objc/gnustep_compat.*).
	sed -i '1i #import "gnustep_compat.h"' objc/base.m objc/class.m
	sed -i 's|^// #import <objc/runtime.h>$|// #import "gnustep_compat.h"|' objc/*.go
	# The fixes every macOS build gets (packaging/darwinkit/prepare.sh),
	# then what GNUstep needs.
	for p in "$repo"/packaging/darwinkit/*.patch; do patch -s -p1 <"$p"; done
	if [ -s "$here/darwinkit.patch" ]; then patch -s -p1 <"$here/darwinkit.patch"; fi
	cp "$here"/_shim/objc/* objc/
	cp "$here"/_shim/appkit/* macos/appkit/
	cp "$here"/_shim/dispatch/* dispatch/
)
# Replace the copy only when it changed: Go's cache keys on contents, and
# an unchanged tree keeps every cached package.
if [ -d "$dk" ] && diff -rq "$dk" "$dk.new" >/dev/null 2>&1; then
	rm -rf "$dk.new"
else
	rm -rf "$dk" && mv "$dk.new" "$dk"
fi

# The repository, its darwin files re-tagged (file names too: a _darwin.go
# suffix is a GOOS constraint no tag lifts).
app="$scratch/mew"
rm -rf "$app" && mkdir -p "$app"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard -- . ':!:e2e' ':!:testdata' ':!:*_test.go' |
	xargs -0 cp --parents -t "$app" 2>/dev/null) || true
for f in "$app"/app/*_darwin.go "$app"/cmd/mew/app_darwin.go; do
	sed -i 's,^//go:build darwin && cgo$,//go:build (darwin || gnustep) \&\& cgo,' "$f"
	mv "$f" "${f%_darwin.go}_darwinkit.go"
done
cp "$here"/_shim/cmd/* "$app/cmd/mew/"
# `mew` with no arguments stays the terminal board (default_other.go).
cat >>"$app/go.mod" <<EOF

replace github.com/progrium/darwinkit => $dk
EOF

. "$here/env.sh"
[ -n "${MEW_GNUSTEP_PREP_ONLY:-}" ] && exit 0
cd "$app"
$go build -trimpath -tags gnustep -o "$out" ./cmd/mew
