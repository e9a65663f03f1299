package recording

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Frame is one screen of a recording: its text rows and terminal title at
// T seconds from the recording's start. Name is the census shot's label
// ("05-approval"), "" for a screens.jsonl frame.
type Frame struct {
	T     float64
	Title string
	Rows  []string
	Name  string
}

// maxScreenFile bounds one screen read from a recording.
const maxScreenFile = 1 << 20

// LoadScreensJSONL reads a screens.jsonl (OpenCode's and Gemini CLI's
// recordings): one {"t": s, "screen": text, "title": text?} a line, the
// screen whenever it changed. Times above 1e9 are epoch seconds and are
// made relative to the first frame.
func LoadScreensJSONL(path string) ([]Frame, error) {
	var out []Frame
	err := readLines(path, func(line []byte) error {
		var p struct {
			T      *float64 `json:"t"`
			Screen *string  `json:"screen"`
			Title  string   `json:"title"`
		}
		if err := json.Unmarshal(line, &p); err != nil {
			return err
		}
		if p.T == nil || p.Screen == nil {
			return fmt.Errorf(`want {"t": seconds, "screen": text}`)
		}
		out = append(out, Frame{T: *p.T, Title: p.Title, Rows: strings.Split(*p.Screen, "\n")})
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].T < out[j].T })
	if len(out) > 0 && out[0].T > 1e9 {
		t0 := out[0].T
		for i := range out {
			out[i].T -= t0
		}
	}
	return out, nil
}

// censusShot is a census screen file's name: NN-<label>.txt.
var censusShot = regexp.MustCompile(`^(\d\d)-([a-z0-9-]+)\.txt$`)

// censusHeader is its first line: `# t=<s> title=<python repr>`.
var censusHeader = regexp.MustCompile(`^# t=([0-9.]+) title=(.*)$`)

// LoadCensusRun reads the screens of one run of ../shared/fixtures/census
// (<agent>/run-*/NN-<label>.txt, the first line `# t=<s> title='…'`, then
// the pane as tmux captured it), in time order.
func LoadCensusRun(dir string) ([]Frame, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Frame
	for _, e := range entries {
		m := censusShot.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		f, err := LoadCensusShot(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no screens (NN-<label>.txt)", dir)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].T < out[j].T })
	return out, nil
}

// LoadCensusShot reads one census screen file.
func LoadCensusShot(path string) (Frame, error) {
	info, err := os.Stat(path)
	if err != nil {
		return Frame{}, err
	}
	if info.Size() > maxScreenFile {
		return Frame{}, fmt.Errorf("%s: larger than %d bytes", path, maxScreenFile)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Frame{}, err
	}
	head, rest, _ := strings.Cut(string(data), "\n")
	h := censusHeader.FindStringSubmatch(head)
	if h == nil {
		return Frame{}, fmt.Errorf("%s: first line is not `# t=<s> title=<title>`", path)
	}
	t, err := strconv.ParseFloat(h[1], 64)
	if err != nil {
		return Frame{}, fmt.Errorf("%s: %w", path, err)
	}
	name := strings.TrimSuffix(filepath.Base(path), ".txt")
	return Frame{T: t, Title: unquote(h[2]), Rows: strings.Split(strings.TrimRight(rest, "\n"), "\n"), Name: name}, nil
}

// unquote undoes the recorder's Python repr of the title ('…' or "…").
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		s = s[1 : len(s)-1]
		s = strings.NewReplacer(`\'`, `'`, `\"`, `"`, `\\`, `\`).Replace(s)
	}
	return s
}
