package logging

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"omnibus/edge/internal/httpx/request"
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
	log := slog.New(oncall{Handler: slog.NewJSONHandler(&b, nil), repeats: newRepeats(func() time.Time { return now }, neverFires)})
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

// neverFires is an afterFunc whose timers never run.
func neverFires(time.Duration, func()) func() bool { return func() bool { return true } }

// fakeTimers is an afterFunc the test fires by hand.
type fakeTimers struct {
	mu      sync.Mutex
	pending []func()
	waits   []time.Duration
}

func (f *fakeTimers) after(d time.Duration, fn func()) func() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	i := len(f.pending)
	f.pending = append(f.pending, fn)
	f.waits = append(f.waits, d)
	return func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		stopped := f.pending[i] != nil
		f.pending[i] = nil
		return stopped
	}
}

func (f *fakeTimers) fire() {
	f.mu.Lock()
	fns := f.pending
	f.pending = make([]func(), len(fns))
	f.mu.Unlock()
	for _, fn := range fns {
		if fn != nil {
			fn()
		}
	}
}

// A burst of identical errors that stops is still counted: at the end of
// its window one line says how many were held back (before, the count
// waited for the next identical error, which might never come).
func TestRepeatCountIsWrittenAtTheEndOfTheWindow(t *testing.T) {
	var b bytes.Buffer
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	timers := &fakeTimers{}
	log := slog.New(oncall{Handler: slog.NewJSONHandler(&b, nil), repeats: newRepeats(func() time.Time { return now }, timers.after)})
	cut := errors.New("connection refused")
	r := request.With(httptest.NewRequest("GET", "/", nil), "req-last", "192.0.2.1", false)
	for i := range 500 {
		ctx := context.Background()
		if i == 499 {
			ctx = r.Context()
		}
		log.ErrorContext(ctx, "accounts: session lookup", "err", cut)
		now = now.Add(time.Millisecond)
	}
	if n := len(lines(t, &b)); n != 1 {
		t.Fatalf("%d lines during the burst, want 1", n)
	}
	if len(timers.waits) != 1 || timers.waits[0] != RepeatInterval-time.Millisecond {
		t.Fatalf("end-of-window timers %v, want one of %v", timers.waits, RepeatInterval-time.Millisecond)
	}
	now = now.Add(RepeatInterval)
	timers.fire() // the window ends; no further error comes
	got := lines(t, &b)
	if len(got) != 2 {
		t.Fatalf("%d lines after the window, want 2:\n%s", len(got), b.String())
	}
	if got[1]["msg"] != "accounts: session lookup" || got[1]["repeated"] != float64(499) || got[1]["request_id"] != "req-last" {
		t.Errorf("count line %v: want repeated=499 and the last request's id", got[1])
	}
	timers.fire() // nothing more held: nothing more written
	if n := len(lines(t, &b)); n != 2 {
		t.Fatalf("%d lines after an empty window, want 2", n)
	}
}

// Counts still held when the edge stops are written by the Buffer's Close.
func TestRepeatCountIsWrittenAtClose(t *testing.T) {
	var b bytes.Buffer
	buf := NewBuffer(&b, 1<<16, time.Hour)
	log := New(buf, "json", slog.LevelInfo)
	for range 3 {
		log.Warn("ratelimit: shared limit unavailable", "err", errors.New("down"))
	}
	buf.Close()
	got := lines(t, &b)
	if len(got) != 2 || got[1]["repeated"] != float64(2) {
		t.Fatalf("want the warning, then repeated=2 at close; got:\n%s", b.String())
	}
}
