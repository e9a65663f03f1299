# Mew's hook as its plugins run it: sh mew-hook.sh [--agent=NAME], with the
# agent's event on stdin. It runs the mew-hook that `mew install` put in
# $MEW_HOME/bin (~/.mew/bin), else one on PATH or in the usual folders.
# It never prints and always exits 0: without mew-hook it does nothing, so
# the agent shows no hook error and never waits.
h=${MEW_HOME:-$HOME/.mew}/bin/mew-hook
if [ ! -x "$h" ]; then
	h=$(command -v mew-hook 2>/dev/null) || h=
	for d in /opt/homebrew/bin /usr/local/bin "$HOME/.local/bin" "$HOME/go/bin"; do
		[ -n "$h" ] && break
		[ -x "$d/mew-hook" ] && h=$d/mew-hook
	done
fi
if [ -n "$h" ] && [ -x "$h" ]; then
	# GOMAXPROCS=1: the hook starts faster (hookbin.RunEnv); MEW_HOOK_VIA:
	# an event that a settings entry of Mew's delivers too is folded once.
	MEW_HOOK_VIA=plugin GOMAXPROCS=1 "$h" "$@" >/dev/null 2>&1
fi
exit 0
