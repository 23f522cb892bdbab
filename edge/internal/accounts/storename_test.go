package accounts

import (
	"encoding/json"
	"testing"

	"omnibus/shared"
)

// The store-name rule's cases in shared/validation-cases.json
// (the renderer's slugify and storeNameError run the same table): the slug a
// wanted name becomes, and why it is refused before the database is asked.
func TestStoreNameCases(t *testing.T) {
	var table struct {
		Slugs []struct {
			Input   string `json:"input"`
			Slug    string `json:"slug"`
			Problem string `json:"problem"`
		} `json:"slugs"`
	}
	if err := json.Unmarshal(shared.ValidationCasesJSON, &table); err != nil || len(table.Slugs) == 0 {
		t.Fatalf("validation-cases.json slugs: %v", err)
	}
	for _, c := range table.Slugs {
		slug := Slug(c.Input)
		if got := storeNameProblem(c.Input, slug); slug != c.Slug || got != c.Problem {
			t.Errorf("%q: slug %q refused %q, want %q refused %q", c.Input, slug, got, c.Slug, c.Problem)
		}
	}
}
