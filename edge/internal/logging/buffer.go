package logging

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// Buffer batches log lines before they reach w (the edge's stderr), so a
// cache hit's access-log line is a copy into memory instead of a write(2)
// of its own: at tens of thousands of hits per second the system calls cost
// more than the rest of the hit.
//
// Bounds: it holds at most size bytes (a line that does not fit first
// writes out what is held, and a line larger than size is written through
// at once); what it holds is written out every interval by a goroutine, at
// once for every line at Warn or above (New's handler flushes those, so
// errors are never late and stay in order with the lines before them), and
// on Close, which main calls before it exits.
type Buffer struct {
	mu   sync.Mutex
	w    io.Writer
	buf  []byte
	size int
	stop chan struct{}
	done chan struct{}
}

// NewBuffer returns a Buffer in front of w that holds up to size bytes and
// writes them out at least every interval until Close.
func NewBuffer(w io.Writer, size int, interval time.Duration) *Buffer {
	b := &Buffer{w: w, buf: make([]byte, 0, size), size: size, stop: make(chan struct{}), done: make(chan struct{})}
	go b.flushEvery(interval)
	return b
}

func (b *Buffer) flushEvery(interval time.Duration) {
	defer close(b.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			b.Flush()
		case <-b.stop:
			return
		}
	}
}

// Write keeps p (one log line: slog handlers write each record whole).
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.buf)+len(p) > b.size {
		if err := b.flushLocked(); err != nil {
			return 0, err
		}
		if len(p) > b.size {
			// A copy, so that p never escapes: LogAccess builds its
			// line on the stack.
			return b.w.Write(append([]byte(nil), p...))
		}
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// Flush writes out what the buffer holds.
func (b *Buffer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

func (b *Buffer) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.w.Write(b.buf)
	b.buf = b.buf[:0]
	return err
}

// Close stops the periodic flush and writes out what is held. Lines written
// after Close still reach w, at the latest when the buffer fills or at the
// next Flush.
func (b *Buffer) Close() error {
	select {
	case <-b.stop:
	default:
		close(b.stop)
		<-b.done
	}
	return b.Flush()
}

// bufferHandler is the handler New makes for a Buffer: it writes the
// Buffer out after every record at Warn or above. own (the handler as New
// made it, without attributes or groups added) and json let LogAccess write
// the access line itself.
type bufferHandler struct {
	slog.Handler
	buf  *Buffer
	json bool
	own  bool
}

func (h bufferHandler) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		if ferr := h.buf.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

func (h bufferHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return bufferHandler{Handler: h.Handler.WithAttrs(as), buf: h.buf}
}

func (h bufferHandler) WithGroup(name string) slog.Handler {
	return bufferHandler{Handler: h.Handler.WithGroup(name), buf: h.buf}
}
