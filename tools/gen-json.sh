#!/usr/bin/env bash
# Regenerates the easyjson code of the types the hook decodes and encodes on
# every call (see reducer/payload.go). The generator always imports the
# top-level easyjson package, which links net/http (and so a dynamic libc
# and ~1 ms of start-up) into mew-hook; the generated code only names it in
# an unused-import guard, so those two lines are removed.
set -euo pipefail
cd "$(dirname "$0")/.."
gen="go run github.com/mailru/easyjson/easyjson@v0.9.2"
for f in session/session.go reducer/payload.go; do
	$gen -all "$f"
	out="${f%.go}_easyjson.go"
	sed -i -e '/easyjson "github.com\/mailru\/easyjson"$/d' -e '/^\t_ easyjson.Marshaler$/d' "$out"
	gofmt -w "$out"
done
