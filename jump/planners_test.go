package jump

import "testing"

// Every step a planner makes says its kind: Plan.Mechanism is read from
// the kinds, never guessed from the argument vectors.
func TestEveryStepHasAKind(t *testing.T) {
	for name, f := range planCases() {
		p := Make(f)
		steps := append(append([]Step{}, p.Inner...), p.Outer...)
		if p.Verify != nil {
			steps = append(steps, p.Verify.Reopen)
		}
		for _, s := range steps {
			if s.Kind == "" {
				t.Errorf("%s: step %q has no kind", name, s.Name)
			}
			if (s.Kind == StepAppleScript) != (s.ScriptName != "") {
				t.Errorf("%s: step %q: kind %s with script %q", name, s.Name, s.Kind, s.ScriptName)
			}
		}
	}
}
