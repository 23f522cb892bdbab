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
//
// A write to w happens outside the lock that lines are added under: the
// request that fills the buffer swaps it for a spare and writes it out while
// the others go on adding lines. (Holding that lock across a 64 KB write(2)
// parked every other request's goroutine behind it: the edge's cache hits
// ran 4-5% slower with the access log on than off.) Writes leave in the
// order their lines came, and it holds two buffers
// (a third while two writes overlap).
type Buffer struct {
	mu    sync.Mutex // guards buf and spare
	buf   []byte
	spare []byte // the buffer last written out, for the next swap
	size  int

	out sync.Mutex // held across each write to w: one at a time, in the order taken
	w   io.Writer

	stop chan struct{}
	done chan struct{}

	closing []func() // run first by Close (guarded by mu)
}

// beforeClose has Close run f before its last write (New's loggers write
// the repeat counts they still hold).
func (b *Buffer) beforeClose(f func()) {
	b.mu.Lock()
	b.closing = append(b.closing, f)
	b.mu.Unlock()
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
	if len(p) > b.size {
		// Written through, after what is held. A copy, so that p never
		// escapes: LogAccess builds its line on the stack.
		b.mu.Lock()
		if err := b.writeOut(append([]byte(nil), p...)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	for {
		b.mu.Lock()
		if len(b.buf)+len(p) <= b.size {
			b.buf = append(b.buf, p...)
			b.mu.Unlock()
			return len(p), nil
		}
		if err := b.writeOut(nil); err != nil {
			return 0, err
		}
	}
}

// Flush writes out what the buffer holds, after any write already under way.
func (b *Buffer) Flush() error {
	b.mu.Lock()
	return b.writeOut(nil)
}

// writeOut is called with b.mu held and releases it: it takes what is held
// (giving the buffer the spare), then writes it and then extra to w outside
// b.mu. Taking b.out before letting go of b.mu keeps writes in the order
// their lines were taken.
func (b *Buffer) writeOut(extra []byte) error {
	if len(b.buf) == 0 && extra == nil {
		// Nothing held: only wait for a write under way.
		b.out.Lock()
		b.mu.Unlock()
		b.out.Unlock()
		return nil
	}
	held := b.buf
	b.buf, b.spare = b.spare[:0], nil
	if b.buf == nil {
		b.buf = make([]byte, 0, b.size)
	}
	b.out.Lock()
	b.mu.Unlock()
	var err error
	if len(held) > 0 {
		_, err = b.w.Write(held)
	}
	if err == nil && extra != nil {
		_, err = b.w.Write(extra)
	}
	b.out.Unlock()
	b.mu.Lock()
	if b.spare == nil {
		b.spare = held
	}
	b.mu.Unlock()
	return err
}

// Close stops the periodic flush and writes out what is held. Lines written
// after Close still reach w, at the latest when the buffer fills or at the
// next Flush.
func (b *Buffer) Close() error {
	b.mu.Lock()
	closing := b.closing
	b.mu.Unlock()
	for _, f := range closing {
		f()
	}
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
