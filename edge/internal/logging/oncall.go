package logging

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"omnibus/edge/internal/http/request"
)

// RepeatInterval is how often one warning or error, repeated word for word
// (message and err), is logged: once, then once per interval at most with
// repeated=N, the number of identical lines left out since. A database cut
// would otherwise log "accounts: session lookup" once per request.
const RepeatInterval = 10 * time.Second

// maxRepeatKeys bounds the distinct lines remembered; past it the memory
// starts afresh (a line may then be logged twice in one interval).
const maxRepeatKeys = 1024

// oncall is what an on-call engineer wants of every line: the request id of
// a line logged with a request's context (slog.ErrorContext), and repeated
// warnings and errors folded into one line per RepeatInterval with a count.
type oncall struct {
	slog.Handler
	repeats *repeats
}

type repeats struct {
	mu    sync.Mutex
	now   func() time.Time
	lines map[string]*repeat
}

type repeat struct {
	logged  time.Time
	skipped int
}

func newRepeats(now func() time.Time) *repeats {
	return &repeats{now: now, lines: map[string]*repeat{}}
}

// allow reports whether the line key is logged now, and how many identical
// lines were left out before it.
func (rs *repeats) allow(key string) (bool, int) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	now := rs.now()
	r := rs.lines[key]
	if r == nil {
		if len(rs.lines) >= maxRepeatKeys {
			clear(rs.lines)
		}
		rs.lines[key] = &repeat{logged: now}
		return true, 0
	}
	if now.Sub(r.logged) < RepeatInterval {
		r.skipped++
		return false, 0
	}
	n := r.skipped
	r.logged, r.skipped = now, 0
	return true, n
}

func (h oncall) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		key := r.Level.String() + "\x00" + r.Message
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "err" {
				key += "\x00" + a.Value.String()
			}
			return true
		})
		ok, skipped := h.repeats.allow(key)
		if !ok {
			return nil
		}
		if skipped > 0 {
			r = r.Clone()
			r.AddAttrs(slog.Int("repeated", skipped))
		}
	}
	if ctx != nil {
		if id := request.IDFrom(ctx); id != "" && !hasAttr(r, "request_id") {
			r = r.Clone()
			r.AddAttrs(slog.String("request_id", id))
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
