package logging

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/http/request"
)

func lines(t *testing.T, b *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %s", l)
		}
		out = append(out, m)
	}
	return out
}

// During a database cut every request fails the same way: the log gets
// one line per RepeatInterval, saying how many it left out.
func TestRepeatedErrorsAreLoggedOncePerIntervalWithACount(t *testing.T) {
	var b bytes.Buffer
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	log := slog.New(oncall{Handler: slog.NewJSONHandler(&b, nil), repeats: newRepeats(func() time.Time { return now })})
	cut := errors.New("dial tcp 10.0.0.5:5432: connect: connection refused")
	for range 1000 {
		log.Error("accounts: session lookup", "err", cut)
		now = now.Add(time.Millisecond) // 1000 requests in 1 s
	}
	log.Error("billing: session lookup", "err", cut) // another line is its own
	log.Info("http", "status", 200)                  // info lines are never folded
	log.Info("http", "status", 200)
	now = now.Add(RepeatInterval)
	log.Error("accounts: session lookup", "err", cut)

	got := lines(t, &b)
	if len(got) != 5 {
		t.Fatalf("%d lines, want 5 (first error, other error, 2 info, the error again with its count):\n%s", len(got), b.String())
	}
	if got[0]["msg"] != "accounts: session lookup" || got[0]["repeated"] != nil {
		t.Errorf("first line %v: want the error, no count", got[0])
	}
	if last := got[4]; last["msg"] != "accounts: session lookup" || last["repeated"] != float64(999) {
		t.Errorf("line after the interval %v: want repeated=999", last)
	}
}

// A line logged with a request's context names the request; durations
// are written as Go writes them, not in nanoseconds.
func TestErrorLinesCarryTheRequestIDAndDurationsAreText(t *testing.T) {
	var b bytes.Buffer
	log := New(&b, "json", slog.LevelInfo)
	r := request.With(httptest.NewRequest("GET", "/", nil), "req-123", "192.0.2.1", false)
	log.ErrorContext(r.Context(), "accounts: session lookup", "err", errors.New("down"))
	log.Info("configuration", "SHUTDOWN_TIMEOUT", 15*time.Second)
	got := lines(t, &b)
	if got[0]["request_id"] != "req-123" {
		t.Errorf("error line %v: want request_id req-123", got[0])
	}
	if got[1]["SHUTDOWN_TIMEOUT"] != "15s" {
		t.Errorf("configuration line %v: want SHUTDOWN_TIMEOUT \"15s\"", got[1])
	}
}
