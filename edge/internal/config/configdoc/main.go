// Command configdoc writes docs/configuration.md from the settings table:
// `cd edge && go generate ./internal/config`.
package main

import (
	"fmt"
	"os"

	"omnibus/edge/internal/config"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: configdoc FILE")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], []byte(config.Markdown()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "configdoc:", err)
		os.Exit(1)
	}
}
