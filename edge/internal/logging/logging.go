// Package logging makes the edge's logger from LOG_FORMAT and LOG_LEVEL:
// text for people at a terminal, JSON (one object a line) for a log
// pipeline.
package logging

import (
	"io"
	"log/slog"
	"time"
)

// New returns a logger writing to w in format ("json" or "text") at level
// and above. When w is a *Buffer, every line at Warn or above writes the
// buffer out at once. Lines logged with a request's context carry its
// request_id; a warning or error repeated word for word is logged once per
// RepeatInterval with repeated=N; durations are written as "15s".
func New(w io.Writer, format string, level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level, ReplaceAttr: durationsAsText}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if format == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	h = oncall{Handler: h, repeats: newRepeats(time.Now)}
	if b, ok := w.(*Buffer); ok {
		h = bufferHandler{Handler: h, buf: b, json: format == "json", own: true}
	}
	return slog.New(h)
}
