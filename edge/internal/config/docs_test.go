package config

import (
	"os"
	"strings"
	"testing"
)

// docs/configuration.md is the table: regenerate it (go generate
// ./internal/config) whenever a setting changes.
func TestConfigurationDocMatchesTheTable(t *testing.T) {
	committed, err := os.ReadFile("../../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(committed) != Markdown() {
		t.Fatal("docs/configuration.md differs from the settings table: run `cd edge && go generate ./internal/config` and commit the result")
	}
	for _, s := range Settings {
		if !strings.Contains(string(committed), "| `"+s.Name+"` |") {
			t.Errorf("%s is not in the doc", s.Name)
		}
	}
}

// Every row is complete, named once, and its default parses (Defaults
// would panic otherwise).
func TestSettingsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Settings {
		if s.Name == "" || s.Type == "" || s.Doc == "" || s.load == nil || s.value == nil {
			t.Errorf("incomplete row: %+v", s)
		}
		if seen[s.Name] {
			t.Errorf("%s twice", s.Name)
		}
		seen[s.Name] = true
	}
	DevelopmentDefaults()
}
