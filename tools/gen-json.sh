#!/usr/bin/env bash
# Regenerates the easyjson code of the types the hook decodes and encodes on
# every call (see reducer/payload.go). The generator always imports the
# top-level easyjson package, which links net/http (and so a dynamic libc
# and ~1 ms of start-up) into mew-hook; the generated code only names it in
# an unused-import guard, so those two lines are removed. Its jwriter links
# net (through easyjson/buffer), which makes a default cgo build of mew-hook
# dynamically linked: the generated code writes through internal/jwriter,
# the same API and output without net. (session/codec.go, which uses it,
# is left out of the generator's bootstrap build by the mew_easyjson_gen tag.)
set -euo pipefail
cd "$(dirname "$0")/.."
gen="go run github.com/mailru/easyjson/easyjson@v0.9.2 -gen_build_flags=-tags=mew_easyjson_gen"
for f in session/session.go reducer/payload.go usage/statusline.go; do
	$gen -all "$f"
	out="${f%.go}_easyjson.go"
	sed -i -e '/easyjson "github.com\/mailru\/easyjson"$/d' -e '/^\t_ easyjson.Marshaler$/d' \
		-e 's#"github.com/mailru/easyjson/jwriter"#"github.com/mew-dev/mew/internal/jwriter"#' "$out"
	gofmt -w "$out"
done
