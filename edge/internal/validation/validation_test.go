package validation

import (
	"encoding/json"
	"strings"
	"testing"

	"omnibus/shared"
)

// The table in shared/validation-cases.json, which the renderer's vitest
// runs against its zod schemas too.
func TestSharedCases(t *testing.T) {
	var table struct {
		Cases []struct {
			Field   string `json:"field"`
			Input   string `json:"input"`
			Repeat  []any  `json:"repeat"`
			Problem string `json:"problem"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(shared.ValidationCasesJSON, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) < 20 {
		t.Fatalf("only %d cases", len(table.Cases))
	}
	for _, c := range table.Cases {
		in := c.Input
		if len(c.Repeat) == 2 {
			in = strings.Repeat(c.Repeat[0].(string), int(c.Repeat[1].(float64))) + in
		}
		if _, got := Check(c.Field, in); got != c.Problem {
			t.Errorf("%s %q: got %q, want %q", c.Field, in, got, c.Problem)
		}
	}
}

func TestEmailNormalised(t *testing.T) {
	if got, p := Email("  Jane@Example.COM "); p != OK || got != "jane@example.com" {
		t.Fatalf("got %q %q", got, p)
	}
}

// A refused form shows its values again bounded by the rules: trimmed,
// without the code points the field does not take, cut to its length.
func TestShown(t *testing.T) {
	for _, c := range []struct{ field, in, want string }{
		{"name", "  Ana\x00 Lima\u202e ", "Ana Lima"},
		{"email", " ANA@example ", "ANA@example"},
		{"message", " Two stores,\r\none\tinventory.\x07 ", "Two stores,\none\tinventory."},
		{"name", strings.Repeat("é", 150), strings.Repeat("é", 100)},
		{"company", "Bad \xff bytes", "Bad  bytes"},
	} {
		if got := Shown(c.field, c.in); got != c.want {
			t.Errorf("Shown(%s, %q) = %q, want %q", c.field, c.in, got, c.want)
		}
	}
}
