package logging

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
)

func TestJSONAndLevel(t *testing.T) {
	var b bytes.Buffer
	log := New(&b, "json", slog.LevelWarn)
	log.Info("hidden")
	log.Warn("shown", "k", "v")
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("want only the warning, got %q", b.String())
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil || rec["msg"] != "shown" || rec["k"] != "v" {
		t.Fatalf("not one JSON object: %q (%v)", lines[0], err)
	}
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	New(&b, "text", slog.LevelDebug).Debug("hello", "k", "v")
	if !strings.Contains(b.String(), "msg=hello k=v") {
		t.Fatalf("got %q", b.String())
	}
}
