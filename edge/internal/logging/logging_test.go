package logging

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"omnibus/edge/internal/logging/logtest"
	"omnibus/edge/internal/poll"
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
	var out logtest.Buffer
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
	var out logtest.Buffer
	buf := NewBuffer(&out, 4096, 10*time.Millisecond)
	defer buf.Close()
	New(buf, "text", slog.LevelInfo).Info("http", "path", "/a")
	poll.Until(t, 10*time.Second, func() bool { return strings.Contains(out.String(), "path=/a") }, "the line was never written out")
}

// While a full buffer is being written out (a slow stderr, say), other
// requests still add their lines: they wait for memory, not for the write.
// The line that did not fit, and every line after it, reach the output in
// order once the write ends.
func TestBufferWritesOutsideItsLock(t *testing.T) {
	out := &gatedWriter{entered: make(chan struct{}, 1), release: make(chan struct{})}
	buf := NewBuffer(out, 64, time.Hour)
	line := func(n int) []byte { return fmt.Appendf(nil, "line %02d %s\n", n, strings.Repeat("x", 20)) } // 30 bytes

	buf.Write(line(1))
	buf.Write(line(2))
	filled := make(chan error, 1)
	go func() { _, err := buf.Write(line(3)); filled <- err }() // does not fit: writes out lines 1-2
	<-out.entered                                               // that write is now under way, and stuck

	added := make(chan struct{})
	go func() {
		buf.Write(line(4))
		close(added)
	}()
	select {
	case <-added:
	case <-time.After(10 * time.Second): // only a failure waits this long
		t.Fatal("a line waited for another request's write to the output")
	}

	close(out.release)
	if err := <-filled; err != nil {
		t.Fatal(err)
	}
	if err := buf.Close(); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.HasPrefix(got, string(line(1))+string(line(2))) || strings.Count(got, "\n") != 4 || !strings.Contains(got, "line 03") || !strings.Contains(got, "line 04") {
		t.Fatalf("lines lost, repeated or out of order: %q", got)
	}
}

// Many goroutines logging into a small buffer (writes out overlapping all
// the time): every line arrives once, and each goroutine's lines in the
// order it wrote them.
func TestBufferKeepsEveryLineInOrder(t *testing.T) {
	var out logtest.Buffer
	buf := NewBuffer(&out, 256, time.Millisecond)
	const writers, lines = 8, 500
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for n := range lines {
				buf.Write(fmt.Appendf(nil, "w%d n%04d\n", w, n))
			}
		})
	}
	wg.Wait()
	if err := buf.Close(); err != nil {
		t.Fatal(err)
	}
	next := make([]int, writers)
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var w, n int
		if _, err := fmt.Sscanf(l, "w%d n%d", &w, &n); err != nil || n != next[w] {
			t.Fatalf("line %q: want w%d n%04d next (%v)", l, w, next[w], err)
		}
		next[w]++
	}
	for w, n := range next {
		if n != lines {
			t.Fatalf("writer %d: %d of %d lines arrived", w, n, lines)
		}
	}
}

// gatedWriter blocks its first Write until release is closed.
type gatedWriter struct {
	logtest.Buffer
	entered chan struct{}
	release chan struct{}
	once    sync.Once
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	g.once.Do(func() {
		g.entered <- struct{}{}
		<-g.release
	})
	return g.Buffer.Write(p)
}
