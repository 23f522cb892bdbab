package logging

import (
	"context"
	"log/slog"
	"strconv"
	"time"
)

// Access is the edge's access-log line: message "http" at Info with these
// fields, in this order.
type Access struct {
	Method, Path  string
	Status        int
	Bytes, MS     int64
	IP, RequestID string
}

// LogAccess writes a, at time t, as
//
//	log.Info("http", "method", a.Method, "path", a.Path, "status", a.Status,
//		"bytes", a.Bytes, "ms", a.MS, "ip", a.IP, "request_id", a.RequestID)
//
// would. On the edge's own logger (New writing to a *Buffer, no With or
// WithGroup) a line whose strings slog prints as they are is appended here
// directly, byte for byte what slog writes (TestAccessLineIsSlogs): slog's
// generic Handle was a fifth of a cache hit (decision 0015). Any other
// line or logger goes through slog.
func LogAccess(ctx context.Context, log *slog.Logger, t time.Time, a Access) {
	h := log.Handler()
	if !h.Enabled(ctx, slog.LevelInfo) {
		return
	}
	if b, ok := h.(bufferHandler); ok && b.own && a.verbatim() && (!b.json || t.Year() >= 0 && t.Year() < 10000) {
		var room [320]byte // on the stack: Buffer.Write copies the line
		line := room[:0]
		if b.json {
			line = a.appendJSON(line, t)
		} else {
			line = a.appendText(line, t)
		}
		_, _ = b.buf.Write(line)
		return
	}
	rec := slog.NewRecord(t, slog.LevelInfo, "http", 0)
	rec.AddAttrs(slog.String("method", a.Method), slog.String("path", a.Path), slog.Int("status", a.Status),
		slog.Int64("bytes", a.Bytes), slog.Int64("ms", a.MS),
		slog.String("ip", a.IP), slog.String("request_id", a.RequestID))
	_ = h.Handle(ctx, rec)
}

// verbatim reports whether slog writes every string of a unchanged, in
// both formats: printable ASCII without space, '=', '"' or '\\'.
func (a Access) verbatim() bool {
	return plain(a.Method) && plain(a.Path) && plain(a.IP) && plain(a.RequestID)
}

func plain(s string) bool {
	if s == "" {
		return false // text quotes the empty string
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '=' || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

func (a Access) appendText(b []byte, t time.Time) []byte {
	b = append(b, "time="...)
	b = appendRFC3339Millis(b, t)
	b = append(b, " level=INFO msg=http method="...)
	b = append(b, a.Method...)
	b = append(b, " path="...)
	b = append(b, a.Path...)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(a.Status), 10)
	b = append(b, " bytes="...)
	b = strconv.AppendInt(b, a.Bytes, 10)
	b = append(b, " ms="...)
	b = strconv.AppendInt(b, a.MS, 10)
	b = append(b, " ip="...)
	b = append(b, a.IP...)
	b = append(b, " request_id="...)
	b = append(b, a.RequestID...)
	return append(b, '\n')
}

func (a Access) appendJSON(b []byte, t time.Time) []byte {
	b = append(b, `{"time":"`...)
	b = t.Round(0).AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","level":"INFO","msg":"http","method":"`...)
	b = append(b, a.Method...)
	b = append(b, `","path":"`...)
	b = append(b, a.Path...)
	b = append(b, `","status":`...)
	b = strconv.AppendInt(b, int64(a.Status), 10)
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, a.Bytes, 10)
	b = append(b, `,"ms":`...)
	b = strconv.AppendInt(b, a.MS, 10)
	b = append(b, `,"ip":"`...)
	b = append(b, a.IP...)
	b = append(b, `","request_id":"`...)
	b = append(b, a.RequestID...)
	return append(b, "\"}\n"...)
}

// appendRFC3339Millis is the text handler's time: RFC 3339 truncated to
// milliseconds, always three digits.
func appendRFC3339Millis(b []byte, t time.Time) []byte {
	const prefixLen = len("2006-01-02T15:04:05.000")
	n := len(b)
	t = t.Round(0).Truncate(time.Millisecond).Add(time.Millisecond / 10)
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b[:n+prefixLen], b[n+prefixLen+1:]...) // drop the 4th digit
}
