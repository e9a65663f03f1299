package session

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// Records smaller and larger than the encoder's first buffer round-trip.
func TestRecordRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 30, 12, 0, 0, 123456789, time.UTC)
	for _, pending := range []int{0, 1, 200} {
		rec := Record{Version: RecordVersion, ID: "s-1", Agent: AgentClaude, Hook: &HookState{
			State: Waiting, Reason: ReasonPermission, Source: "hook:PermissionRequest", Since: at, At: at,
			Cwd: "/p/proj", LastMessage: strings.Repeat("é\"\\\n", 50),
		}}
		for i := range pending {
			rec.Hook.Pending = append(rec.Hook.Pending, PendingTool{ID: "toolu_" + strings.Repeat("x", i%40), Tool: "Bash", Detail: "go test ./...", Since: at})
		}
		data, err := EncodeRecord(&rec)
		if err != nil {
			t.Fatal(err)
		}
		if pending == 200 && len(data) <= encodeBufSize {
			t.Fatalf("%d bytes: the big case must outgrow the first buffer", len(data))
		}
		var back Record
		if err := DecodeRecord(data, &back); err != nil {
			t.Fatalf("%d pending: %v", pending, err)
		}
		if !reflect.DeepEqual(back, rec) {
			t.Fatalf("%d pending: round trip changed the record:\n%+v\n%+v", pending, back.Hook, rec.Hook)
		}
	}
}
