// Package logging makes the edge's logger from LOG_FORMAT and LOG_LEVEL:
// text for people at a terminal, JSON (one object a line) for a log
// pipeline.
package logging

import (
	"io"
	"log/slog"
)

// New returns a logger writing to w in format ("json" or "text") at level
// and above.
func New(w io.Writer, format string, level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
