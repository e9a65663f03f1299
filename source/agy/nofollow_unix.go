//go:build unix

package agy

import "syscall"

// syscallNoFollow: a link put where the transcript was is not followed.
const syscallNoFollow = syscall.O_NOFOLLOW
