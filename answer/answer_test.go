package answer

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
)

// fakeTerm shows before until keys are typed, then after (the last one
// stays). It records what was typed.
type fakeTerm struct {
	before, after []string // screens, rows split on \n
	reads         int
	typed         [][]string
	readErr       error
	typeErr       error
	// onRead runs on every read (to change the screen meanwhile).
	onRead func(n int, f *fakeTerm)
}

func (f *fakeTerm) Read(context.Context) (rules.Frame, error) {
	f.reads++
	if f.onRead != nil {
		f.onRead(f.reads, f)
	}
	if f.readErr != nil {
		return rules.Frame{}, f.readErr
	}
	list := f.before
	if len(f.typed) > 0 {
		list = f.after
	}
	s := list[0]
	if len(list) > 1 {
		if len(f.typed) > 0 {
			f.after = list[1:]
		} else {
			f.before = list[1:]
		}
	}
	return rules.Frame{Rows: strings.Split(s, "\n")}, nil
}

func (f *fakeTerm) Type(_ context.Context, live Live) error {
	f.typed = append(f.typed, live.Keys)
	return f.typeErr
}

// clock is a fake time that Sleep advances.
type clock struct{ now time.Time }

func (c *clock) opts() Options {
	return Options{
		Now:   func() time.Time { return c.now },
		Sleep: func(_ context.Context, d time.Duration) { c.now = c.now.Add(d) },
	}
}

const (
	rule = "─────────────────────────────────────────────"
	bash = rule + "\n Bash command\n touch made-by-claude\n Do you want to proceed?\n ❯ 1. Yes\n   2. Yes, and always allow access to /p\n   3. No\n Esc to cancel · Tab to amend"
	idle = "● Done.\n✻ Worked for 2s\n❯ \n  ⏸ manual mode on · ? for shortcuts"
	work = "✻ Burrowing…\n❯ \n  ⏸ manual mode on · esc to interrupt"
)

var claude = rules.Embedded().Set("claude")

// seen is the want a person makes on the screen s: its rule, dialog text
// and the choice numbered n, as the tracker read them.
func seen(t *testing.T, s string, n int) Want {
	t.Helper()
	var tr screen.Tracker
	tr.Observe(claude, rules.Frame{Rows: strings.Split(s, "\n")}, time.Unix(0, 0))
	st := tr.State
	for _, c := range st.Choices {
		if c.N == n {
			return Want{SessionID: "s1", Agent: "claude", Choice: c, Rule: st.Rule, Prompt: st.Prompt}
		}
	}
	t.Fatalf("no choice %d on the screen: %+v", n, st)
	return Want{}
}

func TestDoAnswers(t *testing.T) {
	c := &clock{now: time.Unix(100, 0)}
	term := &fakeTerm{before: []string{bash}, after: []string{bash, bash, work}}
	w := seen(t, bash, 3)
	res := Do(context.Background(), term, claude, w, c.opts())
	if res.Outcome != Answered || len(term.typed) != 1 || strings.Join(term.typed[0], " ") != "3" {
		t.Fatalf("result %+v, typed %q", res, term.typed)
	}
	if took := res.Gone.Sub(res.Typed); took != 3*Poll {
		t.Errorf("gone %v after typing, want %v (the third read after the keys)", took, 3*Poll)
	}
	if res.Rule != "claude/blocked#3" || !strings.Contains(res.Prompt, "touch made-by-claude") {
		t.Errorf("prompt read before typing: %s %q", res.Rule, res.Prompt)
	}
}

func TestDoRefusesAndTypesNothing(t *testing.T) {
	other := strings.Replace(bash, "touch made-by-claude", "rm -rf ~/work", 1)
	reworded := strings.Replace(bash, "3. No", "3. No, and tell Claude what to do", 1)
	question := rule + "\n ☐ Framework\nWhich framework?\n❯ 1. React\n  2. Vue\nEnter to select · ↑/↓ to navigate · Esc to cancel"
	cases := []struct {
		name   string
		screen string
		want   Want
		why    string
	}{
		{"answered in the terminal", idle, seen(t, bash, 1), "shows no prompt now"},
		{"still working on it", work, seen(t, bash, 1), "shows no prompt now"},
		{"a blank screen", "", seen(t, bash, 1), "shows no prompt now (nothing Mew recognises)"},
		{"another command's prompt", other, seen(t, bash, 1), `"touch made-by-claude" is now "rm -rf ~/work"`},
		{"another kind of prompt", question, seen(t, bash, 1), "another prompt"},
		{"the choice reworded", reworded, func() Want { w := seen(t, bash, 3); w.Prompt = ""; return w }(), `no choice 3 "No"`},
		{"a choice that is not there", bash, func() Want { w := seen(t, bash, 1); w.Choice = session.Choice{N: 5, Label: "Yes"}; return w }(), "no choice 5"},
		{"hook choices on a permission", bash, Want{Agent: "claude", Choice: session.Choice{N: 1, Label: "React"}}, `no choice 1 "React"`},
	}
	for _, c := range cases {
		clk := &clock{now: time.Unix(100, 0)}
		term := &fakeTerm{before: []string{c.screen}, after: []string{idle}}
		res := Do(context.Background(), term, claude, c.want, clk.opts())
		if res.Outcome != Refused || len(term.typed) != 0 || !strings.Contains(res.Message, c.why) || !strings.HasPrefix(res.Message, "typed nothing: ") {
			t.Errorf("%s: %s %q, typed %q; want refused with %q", c.name, res.Outcome, res.Message, term.typed, c.why)
		}
	}
	// An agent Mew cannot answer, and an unreadable terminal.
	clk := &clock{now: time.Unix(100, 0)}
	amp := rules.Embedded().Set("amp")
	if res := Do(context.Background(), &fakeTerm{before: []string{bash}}, amp, Want{Agent: "amp"}, clk.opts()); res.Outcome != Refused {
		t.Errorf("amp: %+v", res)
	}
	broken := &fakeTerm{readErr: errors.New("no such pane")}
	if res := Do(context.Background(), broken, claude, seen(t, bash, 1), clk.opts()); res.Outcome != Refused || len(broken.typed) != 0 || !strings.Contains(res.Message, "no such pane") {
		t.Errorf("unreadable: %+v", res)
	}
}

func TestDoHookChoicesMatchByText(t *testing.T) {
	question := rule + "\n ☐ Framework\nWhich framework?\n❯ 1. React\n     A\n  2. Vue\n     B\n  3. Type something.\nEnter to select · ↑/↓ to navigate · Esc to cancel"
	clk := &clock{now: time.Unix(100, 0)}
	term := &fakeTerm{before: []string{question}, after: []string{work}}
	res := Do(context.Background(), term, claude, Want{Agent: "claude", Choice: session.Choice{N: 2, Label: "Vue"}}, clk.opts())
	if res.Outcome != Answered || strings.Join(term.typed[0], "") != "2" {
		t.Errorf("%+v typed %q", res, term.typed)
	}
}

func TestDoWaitsForAFreshPromptAndLooksAgain(t *testing.T) {
	clk := &clock{now: time.Unix(100, 0)}
	w := seen(t, bash, 1)
	w.ShownAt = clk.now.Add(-50 * time.Millisecond)
	// The prompt goes (answered in the terminal) during the wait.
	term := &fakeTerm{before: []string{bash, idle}, after: []string{idle}}
	res := Do(context.Background(), term, claude, w, clk.opts())
	if res.Outcome != Refused || len(term.typed) != 0 || term.reads != 2 {
		t.Fatalf("%+v, typed %q after %d reads", res, term.typed, term.reads)
	}
	// It stays: typed once the prompt has been up for Settle.
	clk = &clock{now: time.Unix(100, 0)}
	w.ShownAt = clk.now.Add(-50 * time.Millisecond)
	term = &fakeTerm{before: []string{bash}, after: []string{work}}
	res = Do(context.Background(), term, claude, w, clk.opts())
	if res.Outcome != Answered || !res.Typed.Equal(w.ShownAt.Add(Settle)) {
		t.Errorf("%+v: typed at %v, want %v", res, res.Typed, w.ShownAt.Add(Settle))
	}
	// A prompt shown long ago (or at an unknown time) is typed at once.
	clk = &clock{now: time.Unix(100, 0)}
	w.ShownAt = time.Time{}
	res = Do(context.Background(), &fakeTerm{before: []string{bash}, after: []string{work}}, claude, w, clk.opts())
	if !res.Typed.Equal(time.Unix(100, 0)) {
		t.Errorf("typed at %v", res.Typed)
	}
}

func TestDoReportsAPromptThatStays(t *testing.T) {
	clk := &clock{now: time.Unix(100, 0)}
	term := &fakeTerm{before: []string{bash}, after: []string{bash}}
	res := Do(context.Background(), term, claude, seen(t, bash, 1), clk.opts())
	if res.Outcome != Stuck || len(term.typed) != 1 || res.Keys == nil || !res.Gone.IsZero() {
		t.Fatalf("%+v", res)
	}
	if clk.now.Sub(res.Typed) < Confirm || clk.now.Sub(res.Typed) > Confirm+Poll {
		t.Errorf("gave up %v after typing, want %v", clk.now.Sub(res.Typed), Confirm)
	}
	// Half-drawn and unreadable screens after the keys are no proof of an
	// answer either.
	clk = &clock{now: time.Unix(100, 0)}
	term = &fakeTerm{before: []string{bash}, after: []string{"", "half ──"}}
	if res := Do(context.Background(), term, claude, seen(t, bash, 1), clk.opts()); res.Outcome != Stuck {
		t.Errorf("blank after typing: %+v", res)
	}
	// Another prompt after the keys: the next question, or the prompt
	// changed under them (a dialog flipping between two commands). Mew
	// cannot tell: changed, never answered, and the keys are named.
	next := strings.Replace(bash, "touch made-by-claude", "touch second", 1)
	clk = &clock{now: time.Unix(100, 0)}
	term = &fakeTerm{before: []string{bash}, after: []string{next}}
	if res := Do(context.Background(), term, claude, seen(t, bash, 1), clk.opts()); res.Outcome != Changed || strings.Join(res.Keys, "") != "1" ||
		!strings.Contains(res.Message, "another prompt") {
		t.Errorf("next prompt: %+v", res)
	}
	// Typing fails: failed, and the keys that may have gone are named.
	clk = &clock{now: time.Unix(100, 0)}
	term = &fakeTerm{before: []string{bash}, typeErr: errors.New("pane gone")}
	if res := Do(context.Background(), term, claude, seen(t, bash, 2), clk.opts()); res.Outcome != Failed || strings.Join(res.Keys, "") != "2" {
		t.Errorf("type error: %+v", res)
	}
}

func TestKeyBytes(t *testing.T) {
	got, err := KeyBytes([]string{"1", "Down", "Enter", "Escape", "y"})
	if err != nil || got != "1\x1b[B\r\x1by" {
		t.Errorf("%q %v", got, err)
	}
	for _, bad := range []string{"12", "\x1b", "Enter\n", "$(x)", "", "A", "F1"} {
		if _, err := KeyBytes([]string{bad}); err == nil {
			t.Errorf("%q accepted as a key", bad)
		}
	}
}

func TestLogIsCappedAndPrivate(t *testing.T) {
	path := LogPath(t.TempDir())
	e := Entry{At: time.Unix(100, 0), Session: "s1", Agent: "claude", Choice: session.Choice{N: 1, Label: "Yes"},
		Prompt: strings.Repeat("p", 5000), Outcome: Answered}
	for written := 0; written < MaxLogSize+4096; written += 700 {
		if err := AppendLog(path, e); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() > MaxLogSize || fi.Mode().Perm() != 0o600 {
		t.Fatalf("log %v %v", fi, err)
	}
	old, err := os.Stat(path + ".1")
	if err != nil || old.Size() > MaxLogSize {
		t.Fatalf("rotated log %v %v", old, err)
	}
	data, _ := os.ReadFile(path)
	line, _, _ := strings.Cut(string(data), "\n")
	var got Entry
	if err := json.Unmarshal([]byte(line), &got); err != nil || len([]rune(got.Prompt)) > maxLoggedPrompt || got.Choice.Label != "Yes" {
		t.Errorf("entry %+v %v", got, err)
	}
}

// A prompt with a credential in its command: the log keeps the command,
// not the secret (the adversarial run found a bearer token in 10/10 lines).
func TestLogRedactsSecrets(t *testing.T) {
	path := LogPath(t.TempDir())
	secrets := []string{"abc123def456ghi789", "sk-live-0123456789abcdefXYZ", "hunter2pass", "s3cr3tvalue", "ghp_0123456789abcdefghijABCDEF", "pa55word",
		"AKIAABCDEFGHIJKLMNOP", "eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKKF2QT4"}
	prompt := "Bash command\ncurl -H 'Authorization: Bearer abc123def456ghi789' https://api.x/v1\n" +
		"OPENAI_API_KEY=sk-live-0123456789abcdefXYZ run\nmysql --password=hunter2pass -u root\n" +
		`echo '{"client_secret": "s3cr3tvalue"}'` + "\ngit push https://ghp_0123456789abcdefghijABCDEF@github.com/x\n" +
		"psql postgres://admin:pa55word@db/x\naws AKIAABCDEFGHIJKLMNOP\ncurl -b jwt=eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKKF2QT4\nDo you want to proceed?"
	e := Entry{At: time.Unix(100, 0), Session: "s1", Agent: "claude", Choice: session.Choice{N: 1, Label: "Yes"}, Prompt: prompt,
		Outcome: Refused, Message: `typed nothing: the prompt changed: "curl -H 'Authorization: Bearer abc123def456ghi789'" is now "x"`}
	if err := AppendLog(path, e); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	for _, s := range secrets {
		if strings.Contains(string(data), s) {
			t.Errorf("the log keeps %q: %s", s, data)
		}
	}
	for _, keep := range []string{"curl -H", "https://api.x/v1", "mysql --password=", "Do you want to proceed?", "github.com/x"} {
		if !strings.Contains(string(data), keep) {
			t.Errorf("the log lost %q: %s", keep, data)
		}
	}
}

// frameTerm shows the frames before until keys are typed, then those
// after (the last one stays): frames with their terminal title.
type frameTerm struct {
	before, after []rules.Frame
	typed         int
}

func (f *frameTerm) Read(context.Context) (rules.Frame, error) {
	list := &f.before
	if f.typed > 0 {
		list = &f.after
	}
	fr := (*list)[0]
	if len(*list) > 1 {
		*list = (*list)[1:]
	}
	return fr, nil
}

func (f *frameTerm) Type(context.Context, Live) error { f.typed++; return nil }

// Codex's approval (testdata/fixtures/codex-0.169.0/b-approve) clears its
// "Action Required" title and its dialog in two frames, either first on a
// loaded machine: neither in-between frame is another prompt.
func TestDoAnswersThroughCodexsTwoStepRedraw(t *testing.T) {
	codex := rules.Embedded().Set("codex")
	dialog := strings.Split(`• Running touch made-by-codex

  Would you like to run the following command?

  Environment: local

  Reason: Create a file outside the sandbox?

  $ touch made-by-codex


› 1. Yes, proceed (y)
  2. Yes, and don't ask again for commands that start with `+"`touch made-by-codex`"+` (p)
  3. No, and tell Codex what to do differently (esc)

  Press enter to confirm or esc to cancel`, "\n")
	composer := strings.Split("■ Conversation interrupted - tell the model what to do differently.\n\n› \n\n  gpt-5.5 default · ~/proj", "\n")
	const asks, plain = "[ ! ] Action Required", "proj"
	var tr screen.Tracker
	tr.Observe(codex, rules.Frame{Rows: dialog, Title: asks}, time.Unix(0, 0))
	st := tr.State
	var want Want
	for _, c := range st.Choices {
		if c.N == 3 {
			want = Want{SessionID: "s1", Agent: "codex", Choice: c, Rule: st.Rule, Prompt: st.Prompt}
		}
	}
	if want.Rule == "" {
		t.Fatalf("no choice 3 on the dialog: %+v", st)
	}
	for _, tc := range []struct {
		name string
		mid  rules.Frame
	}{
		{"title cleared first", rules.Frame{Rows: dialog, Title: plain}},
		{"dialog cleared first", rules.Frame{Rows: composer, Title: asks}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := &clock{now: time.Unix(100, 0)}
			term := &frameTerm{before: []rules.Frame{{Rows: dialog, Title: asks}},
				after: []rules.Frame{tc.mid, tc.mid, {Rows: composer, Title: plain}}}
			res := Do(context.Background(), term, codex, want, clk.opts())
			if res.Outcome != Answered || term.typed != 1 || strings.Join(res.Keys, " ") != "Escape" {
				t.Fatalf("%+v (typed %d times)", res, term.typed)
			}
		})
	}
	// The next dialog, though, is another prompt.
	next := slices.Clone(dialog)
	for i, r := range next {
		next[i] = strings.ReplaceAll(r, "made-by-codex", "second")
	}
	clk := &clock{now: time.Unix(100, 0)}
	term := &frameTerm{before: []rules.Frame{{Rows: dialog, Title: asks}}, after: []rules.Frame{{Rows: next, Title: asks}}}
	if res := Do(context.Background(), term, codex, want, clk.opts()); res.Outcome != Changed {
		t.Errorf("the next dialog: %+v", res)
	}
}

// Codex sets its "Action Required" title a frame after (or clears it a
// frame before) it draws the dialog, so the rule that notices one dialog
// differs between when the person saw it and when Mew types: the same
// dialog text and choice is the same prompt (the web board's answer was
// refused so under load). Another dialog text is still refused.
func TestDoAnswersCodexsDialogNoticedByAnotherRule(t *testing.T) {
	codex := rules.Embedded().Set("codex")
	dialog := strings.Split(`• Running touch made-by-codex

  Would you like to run the following command?

  Reason: Create a file outside the sandbox?

  $ touch made-by-codex

› 1. Yes, proceed (y)
  2. No, and tell Codex what to do differently (esc)

  Press enter to confirm or esc to cancel`, "\n")
	composer := strings.Split("› \n\n  gpt-5.5 default · ~/proj", "\n")
	const asks, plain = "[ ! ] Action Required", "proj"
	seen := func(title string) Want {
		var tr screen.Tracker
		tr.Observe(codex, rules.Frame{Rows: dialog, Title: title}, time.Unix(0, 0))
		for _, c := range tr.State.Choices {
			if c.N == 1 {
				return Want{SessionID: "s1", Agent: "codex", Choice: c, Rule: tr.State.Rule, Prompt: tr.State.Prompt}
			}
		}
		t.Fatalf("no choice 1 on the dialog: %+v", tr.State)
		return Want{}
	}
	for _, tc := range []struct{ name, shown, now string }{
		{"title set after it was shown", plain, asks},
		{"title cleared after it was shown", asks, plain},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := seen(tc.shown)
			live := rules.Frame{Rows: dialog, Title: tc.now}
			if got := codex.Classify(live).Rule; got == want.Rule {
				t.Fatalf("the same rule (%s) both times: the case is not the one meant", got)
			}
			clk := &clock{now: time.Unix(100, 0)}
			term := &frameTerm{before: []rules.Frame{live}, after: []rules.Frame{{Rows: composer, Title: plain}}}
			res := Do(context.Background(), term, codex, want, clk.opts())
			if res.Outcome != Answered || term.typed != 1 {
				t.Fatalf("%+v (typed %d times)", res, term.typed)
			}
		})
	}
	// Another dialog under the other rule is another prompt: nothing typed.
	want := seen(plain)
	other := slices.Clone(dialog)
	for i, r := range other {
		other[i] = strings.ReplaceAll(r, "made-by-codex", "second")
	}
	clk := &clock{now: time.Unix(100, 0)}
	term := &frameTerm{before: []rules.Frame{{Rows: other, Title: asks}}}
	if res := Do(context.Background(), term, codex, want, clk.opts()); res.Outcome != Refused || term.typed != 0 {
		t.Errorf("another dialog: %+v (typed %d times)", res, term.typed)
	}
}
