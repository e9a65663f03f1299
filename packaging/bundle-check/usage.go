package main

// usageKey is one API that macOS guards with a usage description in
// Info.plist: without the key it refuses the API with no prompt (Apple
// Events: -1743; the local network on macOS 15+: "No route to host" for
// the app and its ssh children, and no switch in System Settings).
type usageKey struct {
	API    string // what it is, in words
	Marker string // the name a Go source of Mew's (not a test) shows it by
	Key    string // the Info.plist key it needs
	// Mew calls it: checkPlist requires the key. The table test keeps this
	// in step with the code (Marker found in a source, or not).
	Mew bool
}

// usageKeys is the table of APIs to usage keys. Add a row when Mew starts
// calling an API Apple guards (Apple's "Protected resources" list).
var usageKeys = []usageKey{
	{"Apple Events to other apps (osascript: jumps, iTerm2 answers, the focus check)", "terminal.OsascriptPath", "NSAppleEventsUsageDescription", true},
	{"the local network (ssh to a remote on the LAN)", `"ssh"`, "NSLocalNetworkUsageDescription", true},
	{"the local network (a webhook to a host on the LAN)", `"net/http"`, "NSLocalNetworkUsageDescription", true},
	{"the camera", "AVCaptureDevice", "NSCameraUsageDescription", false},
	{"the microphone", "AVAudioRecorder", "NSMicrophoneUsageDescription", false},
	{"contacts", "CNContactStore", "NSContactsUsageDescription", false},
	{"calendars", "EKEventStore", "NSCalendarsUsageDescription", false},
	{"location", "CLLocationManager", "NSLocationUsageDescription", false},
	{"Bluetooth", "CBCentralManager", "NSBluetoothAlwaysUsageDescription", false},
	{"speech recognition", "SFSpeechRecognizer", "NSSpeechRecognitionUsageDescription", false},
	{"the Desktop folder by its own API", "NSDesktopDirectory", "NSDesktopFolderUsageDescription", false},
}
