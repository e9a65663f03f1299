//go:build darwin && cgo

package app

import (
	"context"
	"errors"
	"os"
	"unsafe"

	"github.com/progrium/darwinkit/macos/foundation"
	"github.com/progrium/darwinkit/objc"
)

// The login item. Main thread only (the menu's action and menu delegate).
var (
	loginBackend loginBackendKind
	appService   objc.Class // SMAppService, when loginBackend is loginAppService
	launchAgent  launchAgentJob
	// loginBusy: a launchAgentJob change is running on its goroutine.
	loginBusy bool
	// loginWhy: this copy cannot be a login item (loginUnavailableFor).
	loginWhy string
)

// loadFramework loads a system framework darwinkit does not link
// (ServiceManagement, UserNotifications); until then its classes do not
// exist and objc.GetClass returns nil.
func loadFramework(name string) bool {
	b := foundation.Bundle_BundleWithPath("/System/Library/Frameworks/" + name + ".framework")
	return !b.IsNil() && b.Load()
}

// classNamed returns a class if its framework loaded and the system has it.
func classNamed(framework, class string) (objc.Class, bool) {
	if !loadFramework(framework) {
		return objc.Class{}, false
	}
	c := objc.GetClass(class)
	return c, c.Ptr() != nil
}

func setupLogin() {
	loginWhy = loginUnavailableFor(exePath)
	_, inBundle := bundleOf(exePath)
	var hasService bool
	appService, hasService = classNamed("ServiceManagement", "SMAppService")
	loginBackend = chooseLoginBackend(inBundle, hasService)
	home, _ := os.UserHomeDir()
	launchAgent = launchAgentJob{
		Home: home, UID: os.Getuid(),
		App:         findMewApp(exePath, home, func(p string) bool { _, err := os.Stat(p); return err == nil }),
		ServiceName: os.Getenv("XPC_SERVICE_NAME"), Run: runCommand,
	}
}

// mainAppService is [SMAppService mainAppService] (macOS 13+): the app
// itself as a login item. Only called with loginBackend loginAppService.
func mainAppService() objc.Object {
	return objc.Call[objc.Object](appService, objc.Sel("mainAppService")) // objc:+SMAppService
}

// loginStatus is the menu's Launch at Login state.
func loginStatus() loginState {
	if loginBusy {
		return loginState{Unavailable: "changing…"}
	}
	if loginWhy != "" {
		return loginState{Unavailable: loginWhy} // a translocated copy
	}
	if loginBackend == loginAppService {
		return loginStatusFromSM(objc.Call[int](mainAppService(), objc.Sel("status"))) // NSInteger; objc:SMAppService
	}
	return launchAgent.Status()
}

// toggleLogin carries out loginToggle's decision; main thread.
func toggleLogin() {
	op := loginToggle(loginStatus())
	if loginBackend == loginAppService {
		var err error
		switch op {
		case loginEnable:
			err = appServiceCall(true)
		case loginDisable:
			err = appServiceCall(false)
		case loginOpenSettings:
			objc.Call[objc.Void](appService, objc.Sel("openSystemSettingsLoginItems")) // objc:+SMAppService
		}
		if err != nil {
			showDialog(dialog{Title: "Launch at Login", Text: err.Error(), Failed: true})
		}
		return
	}
	if op != loginEnable && op != loginDisable {
		return
	}
	// launchctl runs as a process: off the main thread.
	loginBusy = true
	agent := launchAgent
	go func() {
		var note string
		var err error
		if op == loginEnable {
			note, err = agent.Enable(context.Background())
		} else {
			err = agent.Disable(context.Background())
		}
		mainAsync(func() {
			loginBusy = false
			switch {
			case err != nil:
				showDialog(dialog{Title: "Launch at Login", Text: err.Error(), Failed: true})
			case note != "":
				logger.Print(note)
			}
		})
	}()
}

// appServiceCall sends -registerAndReturnError: (or unregister) to the
// main app service, with the NSError** out-parameter as darwinkit's own
// foundation_custom.go passes it. The selectors are literals at the call:
// the selector check (checkdarwin -selectors) reads them there.
func appServiceCall(register bool) error {
	var nsErr foundation.Error
	var ok bool
	if register {
		ok = objc.Call[bool](mainAppService(), objc.Sel("registerAndReturnError:"), unsafe.Pointer(&nsErr)) // objc:SMAppService
	} else {
		ok = objc.Call[bool](mainAppService(), objc.Sel("unregisterAndReturnError:"), unsafe.Pointer(&nsErr)) // objc:SMAppService
	}
	if ok {
		return nil
	}
	if err := foundation.ToGoError(nsErr); err != nil {
		return err
	}
	return errors.New("macOS refused the change")
}
