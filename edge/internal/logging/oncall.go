package logging

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"omnibus/edge/internal/httpx/request"
)

// RepeatInterval is how often one warning or error, repeated word for word
// (message and err), is logged: the first at once; the identical lines
// that follow within the interval are held back and, at the end of it, one
// line stands for them all: the last of them with repeated=N, the number
// it stands for. So a burst that stops is still counted (at the end of its
// window, or when the log is closed), and a steady stream gives one line
// per interval. A database cut would otherwise log "accounts: session
// lookup" once per request.
const RepeatInterval = 10 * time.Second

// maxRepeatKeys bounds the distinct lines remembered; past it the memory
// starts afresh (a line may then be logged twice in one interval; counts
// already held are still written when their window ends).
const maxRepeatKeys = 1024

// oncall is what an on-call engineer wants of every line: the request id of
// a line logged with a request's context (slog.ErrorContext), and repeated
// warnings and errors folded into one line per RepeatInterval with a count.
type oncall struct {
	slog.Handler
	repeats *repeats
}

// afterFunc runs f once d has passed, unless the returned stop is called
// first (time.AfterFunc; tests pass their own clock).
type afterFunc func(d time.Duration, f func()) (stop func() bool)

func realAfter(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

type repeats struct {
	mu    sync.Mutex
	now   func() time.Time
	after afterFunc
	lines map[string]*repeat
}

type repeat struct {
	logged  time.Time
	skipped int
	// held back: the last identical line and the handler it was logged
	// through, written with the count when the window ends (timer) or at
	// Close.
	last  slog.Record
	h     slog.Handler
	timer func() bool // stops the pending end-of-window write; nil if none
}

func newRepeats(now func() time.Time, after afterFunc) *repeats {
	return &repeats{now: now, after: after, lines: map[string]*repeat{}}
}

// allow reports whether the line r with key is logged now, and how many
// identical lines were held back before it (only when its window ended
// without the timer writing them yet). A line held back is kept to be
// written, with the count, at the end of its window.
func (rs *repeats) allow(key string, h slog.Handler, r slog.Record) (bool, int) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	now := rs.now()
	e := rs.lines[key]
	if e == nil {
		if len(rs.lines) >= maxRepeatKeys {
			clear(rs.lines)
		}
		rs.lines[key] = &repeat{logged: now}
		return true, 0
	}
	if left := RepeatInterval - now.Sub(e.logged); left > 0 {
		e.skipped++
		e.last, e.h = r.Clone(), h
		if e.timer == nil {
			e.timer = rs.after(left, func() { rs.flush(e) })
		}
		return false, 0
	}
	n := e.skipped
	if e.timer != nil {
		e.timer()
	}
	*e = repeat{logged: now}
	return true, n
}

// take returns e's held-back line with its count, and starts its next
// window; ok is false when nothing is held. Called with rs.mu held.
func (rs *repeats) take(e *repeat) (slog.Handler, slog.Record, bool) {
	if e.skipped == 0 {
		return nil, slog.Record{}, false
	}
	r, h := e.last, e.h
	r.AddAttrs(slog.Int("repeated", e.skipped))
	if e.timer != nil {
		e.timer()
	}
	*e = repeat{logged: rs.now()}
	return h, r, true
}

// flush writes e's held-back line, if any: its window has ended.
func (rs *repeats) flush(e *repeat) {
	rs.mu.Lock()
	h, r, ok := rs.take(e)
	rs.mu.Unlock()
	if ok {
		_ = h.Handle(context.Background(), r)
	}
}

// flushAll writes every held-back line now (the log is closing).
func (rs *repeats) flushAll() {
	type held struct {
		h slog.Handler
		r slog.Record
	}
	var out []held
	rs.mu.Lock()
	for _, e := range rs.lines {
		if h, r, ok := rs.take(e); ok {
			out = append(out, held{h, r})
		}
	}
	rs.mu.Unlock()
	for _, o := range out {
		_ = o.h.Handle(context.Background(), o.r)
	}
}

func (h oncall) Handle(ctx context.Context, r slog.Record) error {
	if ctx != nil {
		if id := request.IDFrom(ctx); id != "" && !hasAttr(r, "request_id") {
			r = r.Clone()
			r.AddAttrs(slog.String("request_id", id))
		}
	}
	if r.Level >= slog.LevelWarn {
		key := r.Level.String() + "\x00" + r.Message
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "err" {
				key += "\x00" + a.Value.String()
			}
			return true
		})
		ok, skipped := h.repeats.allow(key, h.Handler, r)
		if !ok {
			return nil
		}
		if skipped > 0 {
			r = r.Clone()
			r.AddAttrs(slog.Int("repeated", skipped))
		}
	}
	return h.Handler.Handle(ctx, r)
}

func hasAttr(r slog.Record, key string) bool {
	found := false
	r.Attrs(func(a slog.Attr) bool {
		found = a.Key == key
		return !found
	})
	return found
}

func (h oncall) WithAttrs(as []slog.Attr) slog.Handler {
	return oncall{Handler: h.Handler.WithAttrs(as), repeats: h.repeats}
}

func (h oncall) WithGroup(name string) slog.Handler {
	return oncall{Handler: h.Handler.WithGroup(name), repeats: h.repeats}
}

// durationsAsText writes a time.Duration as Go writes it ("15s", "2m0s",
// "168h0m0s") instead of slog's nanoseconds.
func durationsAsText(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		a.Value = slog.StringValue(a.Value.Duration().String())
	}
	return a
}
