package config

import (
	_ "embed"
	"fmt"
	"strings"
)

// The prose around the table: what comes before it and the renderer's
// settings after it.
var (
	//go:embed doc/head.md
	docHead string
	//go:embed doc/renderer.md
	docRenderer string
)

// Markdown is docs/configuration.md: the settings table (Settings) between
// the prose of doc/. `go generate ./internal/config` writes it; a test
// fails when the committed file differs.
func Markdown() string {
	var b strings.Builder
	b.WriteString(docHead)
	b.WriteString("| Variable | Type | Default | Meaning |\n|---|---|---|---|\n")
	for _, s := range Settings {
		def := "empty"
		if s.Default != "" {
			def = "`" + s.Default + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", s.Name, s.Type, def, strings.ReplaceAll(s.Doc, "|", `\|`))
	}
	b.WriteString(docRenderer)
	return b.String()
}
