// Package logging makes the edge's logger from LOG_FORMAT and LOG_LEVEL:
// text for people at a terminal, JSON (one object a line) for a log
// pipeline.
package logging

import (
	"io"
	"log/slog"
)

// New returns a logger writing to w in format ("json" or "text") at level
// and above. When w is a *Buffer, every line at Warn or above writes the
// buffer out at once.
func New(w io.Writer, format string, level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if format == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	if b, ok := w.(*Buffer); ok {
		h = bufferHandler{Handler: h, buf: b, json: format == "json", own: true}
	}
	return slog.New(h)
}
