package fakellm

import (
	"strings"
	"testing"
)

// The planfile scenario on the Gemini API: write_file of the plan into the
// plans directory its plan-mode description names ("/." in the path), then
// exit_plan_mode of that file's name, then text.
func TestGeminiPlanFileWritesThenAsks(t *testing.T) {
	s, err := Start(Timing{Slow: 0, Chunk: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	url := s.GeminiURL + "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
	dir := "/tmp/x/home/.gemini/tmp/proj/0a-1b/plans"
	user := `{"role":"user","parts":[{"text":"` + Prompt(PlanFile) + `"}]}`
	req := func(contents string) string {
		return `{"tools":[{"functionDeclarations":[{"name":"write_file","description":"ONLY FOR PLANS: Writes. ` +
			`You may ONLY write plans (.md files) in the plans directory: ` + dir + `/. You cannot modify source code."},` +
			`{"name":"exit_plan_mode"}]}],"contents":[` + contents + `]}`
	}
	result := func(name string) string {
		return `,{"role":"model","parts":[{"functionCall":{"name":"` + name + `"}}]},{"role":"user","parts":[{"functionResponse":{"name":"` + name + `"}}]}`
	}
	_, body := post(t, url, req(user))
	for _, want := range []string{`"name":"write_file"`, `"file_path":"` + dir + `/` + PlanFileName + `"`, `Create the marker file`} {
		if !strings.Contains(body, want) {
			t.Fatalf("planfile step 0 has no %s:\n%s", want, body)
		}
	}
	_, body = post(t, url, req(user+result("write_file")))
	if !strings.Contains(body, `"name":"exit_plan_mode"`) || !strings.Contains(body, `"plan_filename":"`+PlanFileName+`"`) {
		t.Fatalf("planfile step 1:\n%s", body)
	}
	if _, body = post(t, url, req(user+result("write_file")+result("exit_plan_mode"))); !strings.Contains(body, `"text":"`) || strings.Contains(body, "functionCall") {
		t.Fatalf("planfile step 2:\n%s", body)
	}
}
