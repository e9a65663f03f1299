// The objc.Call guard of Mew's GNUstep harness (tools/gnustep; a project
// file copied into the scratch copy of darwinkit, never darwinkit's own).
// Every message darwinkit sends passes here first:
//   - nothing responds: GNUstep lacks the selector (or Mew sends a wrong
//     one). Logged once as "mew-gnustep: nothing responds: <Class>
//     <selector>" and answered with zero: through libffi, the forwarding
//     IMP is a SIGSEGV, not an exception.
//   - MEW_GNUSTEP_TRACE=<file>: each new "<Class> <selector>" is appended
//     (class messages as "<Class> +<selector>").
//   - MEW_GNUSTEP_COUNTS=<file>: how many times each "<Class> <selector>"
//     was sent, rewritten every 100 ms (the harness watches the redraw
//     timer through it).
//   - an AppKit message off the main thread ends the process (exit 70).

package objc

// #include <stdlib.h>
// int MewGS_IsMainThread(void);
// const char *MewGS_ClassName(void *cls);
// int MewGS_IsMetaClass(void *cls);
// void *MewGS_SuperClass(void *cls);
// int MewGS_Responds(void *cls, void *sel);
// void MewGS_InstallExceptionHandler(void);
// void MewGS_RegisterDefaults(void);
import "C"

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"
)

type gsClassInfo struct {
	name   string
	meta   bool
	appKit bool
}

var (
	gsOnce      sync.Once
	gsClasses   sync.Map // class pointer -> *gsClassInfo
	gsSeen      sync.Map // "Class sel" -> struct{}
	gsMissing   sync.Map
	gsTraceMu   sync.Mutex
	gsTraceFile *os.File
	gsCountMu   sync.Mutex
	gsCounts    map[string]int
)

// AppKit's roots by name: a message to one of them, or to a subclass,
// must come from the main thread.
var gsAppKitRoots = map[string]bool{
	"NSResponder": true, "NSMenu": true, "NSMenuItem": true, "NSStatusBar": true,
	"NSStatusItem": true, "NSScreen": true, "NSGraphicsContext": true, "NSImage": true,
	"NSWorkspace": true, "NSCell": true, "NSFont": true, "NSTextContainer": true,
	"NSEvent": true,
}

func gsInit() {
	C.MewGS_RegisterDefaults()
	if p := os.Getenv("MEW_GNUSTEP_TRACE"); p != "" {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mew-gnustep: trace: %v\n", err)
		} else {
			gsTraceFile = f
		}
	}
	if p := os.Getenv("MEW_GNUSTEP_COUNTS"); p != "" {
		gsCounts = map[string]int{}
		go gsWriteCounts(p)
	}
}

// gsWriteCounts rewrites path with the counts every 100 ms, atomically
// (a rename), so a reader never sees half a file.
func gsWriteCounts(path string) {
	for range time.Tick(100 * time.Millisecond) {
		gsCountMu.Lock()
		lines := make([]string, 0, len(gsCounts))
		for k, n := range gsCounts {
			lines = append(lines, fmt.Sprintf("%d %s", n, k))
		}
		gsCountMu.Unlock()
		sort.Strings(lines)
		tmp := path + ".tmp"
		if os.WriteFile(tmp, []byte(strings.Join(lines, "\n")+"\n"), 0o644) == nil {
			os.Rename(tmp, path)
		}
	}
}

func gsClass(cls unsafe.Pointer) *gsClassInfo {
	if v, ok := gsClasses.Load(cls); ok {
		return v.(*gsClassInfo)
	}
	ci := &gsClassInfo{name: C.GoString(C.MewGS_ClassName(cls)), meta: C.MewGS_IsMetaClass(cls) != 0}
	for c := cls; c != nil; c = C.MewGS_SuperClass(c) {
		if gsAppKitRoots[C.GoString(C.MewGS_ClassName(c))] {
			ci.appKit = true
			break
		}
	}
	gsClasses.Store(cls, ci)
	return ci
}

// gsGuard reports whether the message may be sent.
func gsGuard(cls Class, sel Selector) bool {
	gsOnce.Do(gsInit)
	ci := gsClass(cls.ptr)
	name := sel.Name()
	key := ci.name + " " + name
	if ci.meta {
		key = ci.name + " +" + name
	}
	if gsTraceFile != nil {
		if _, seen := gsSeen.LoadOrStore(key, struct{}{}); !seen {
			gsTraceMu.Lock()
			fmt.Fprintln(gsTraceFile, key)
			gsTraceMu.Unlock()
		}
	}
	if gsCounts != nil {
		gsCountMu.Lock()
		gsCounts[key]++
		gsCountMu.Unlock()
	}
	if ci.appKit && C.MewGS_IsMainThread() == 0 {
		fmt.Fprintf(os.Stderr, "mew-gnustep: AppKit message off the main thread: %s\n", key)
		os.Exit(70)
	}
	if C.MewGS_Responds(cls.ptr, sel.ptr) == 0 {
		if _, seen := gsMissing.LoadOrStore(key, struct{}{}); !seen {
			fmt.Fprintf(os.Stderr, "mew-gnustep: nothing responds: %s\n", key)
		}
		return false
	}
	// NSApplication's init installs GNUstep's exception panel; ours
	// replaces it before the delegate is set and the loop runs.
	if name == "setDelegate:" || name == "run" {
		C.MewGS_InstallExceptionHandler()
	}
	return true
}
