package app

import "testing"

func TestMonitorActivityOptsOutOfAppNapButLetsTheMacSleep(t *testing.T) {
	// NSActivityUserInitiatedAllowingIdleSystemSleep (NSProcessInfo.h).
	if monitorActivity != 0x00EFFFFF {
		t.Fatalf("options %#x", monitorActivity)
	}
	if monitorActivity&(1<<20) != 0 {
		t.Fatal("idle system sleep must stay allowed")
	}
	if monitorActivity&0xFF == 0 {
		t.Fatal("no user-initiated bits: App Nap would still apply")
	}
}
