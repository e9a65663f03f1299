package session

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The generated encoders (session_easyjson.go, tools/gen-json.sh) write
// every field the types declare: a field added to a type without `make
// generate` is silently left out of every record, `mew status --json`
// and every remote feed (the terminal's app and pane were, until the
// code was regenerated).
func TestGeneratedJSONWritesEveryField(t *testing.T) {
	for _, v := range []any{
		&Usage{}, &Tmux{}, &Terminal{}, &Shown{}, &ScreenState{}, &RegistryState{}, &Record{}, &Quota{},
		&Process{}, &PendingTool{}, &LogState{}, &Host{}, &HookState{}, &Delivery{}, &Choice{}, &Ancestor{},
	} {
		rv := reflect.ValueOf(v).Elem()
		fill(rv, 0)
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%T: %v", v, err)
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatalf("%T: %v in %s", v, err, data)
		}
		for _, f := range reflect.VisibleFields(rv.Type()) {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" || (f.Anonymous && name == "") {
				continue // an embedded struct's fields are checked as the type's own
			}
			if name == "" {
				name = f.Name
			}
			if _, ok := got[name]; !ok {
				t.Errorf("%T.%s: %q not written (run make generate)", v, f.Name, name)
			}
		}
		// And read back as written.
		back := reflect.New(rv.Type())
		if err := json.Unmarshal(data, back.Interface()); err != nil {
			t.Fatalf("%T: read back: %v", v, err)
		}
		if again, _ := json.Marshal(back.Interface()); string(again) != string(data) {
			t.Errorf("%T: read back differs:\n%s\n%s", v, data, again)
		}
	}
}

// fill sets every exported field of v to a value that is not its zero.
func fill(v reflect.Value, depth int) {
	if depth > 4 {
		return
	}
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(time.Date(2026, 12, 7, 21, 0, 0, 0, time.UTC)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(2)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(2)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(0.5)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, depth+1)
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	}
}
