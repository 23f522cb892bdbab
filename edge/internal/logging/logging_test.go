package logging

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
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

// A Buffer holds info lines (the access log) until its interval, its size or
// Close, and writes them out at once with a warning, in order.
func TestBuffer(t *testing.T) {
	var out syncBuffer
	buf := NewBuffer(&out, 200, time.Hour)
	log := New(buf, "text", slog.LevelInfo)
	log.Info("http", "path", "/a")
	if out.String() != "" {
		t.Fatalf("an info line was written through: %q", out.String())
	}
	log.Warn("trouble")
	if got := out.String(); !strings.Contains(got, "path=/a") || !strings.Contains(got, "msg=trouble") || strings.Index(got, "path=/a") > strings.Index(got, "msg=trouble") {
		t.Fatalf("the warning did not write out the lines before it, in order: %q", got)
	}
	for i := range 5 { // more than 200 bytes: the buffer writes out when full
		log.Info("http", "n", i)
	}
	if !strings.Contains(out.String(), "n=0") {
		t.Fatalf("a full buffer was not written out: %q", out.String())
	}
	log.Info("http", "path", "/last")
	if err := buf.Close(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "n=4") || !strings.Contains(got, "path=/last") || strings.Count(got, "\n") != 8 {
		t.Fatalf("Close did not write out every line once: %q", got)
	}
}

// The interval writes out what is held without Close.
func TestBufferInterval(t *testing.T) {
	var out syncBuffer
	buf := NewBuffer(&out, 4096, 10*time.Millisecond)
	defer buf.Close()
	New(buf, "text", slog.LevelInfo).Info("http", "path", "/a")
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), "path=/a"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the line was never written out")
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the flushing goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
