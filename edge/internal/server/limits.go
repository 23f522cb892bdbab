package server

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// Limits bound what one visitor can make the server hold. Slow readers and
// slow senders are cut off by deadlines; the number of open connections is
// capped (more wait in the kernel's accept queue).
type Limits struct {
	// ReadTimeout bounds reading one request, headers and body (default
	// 30s). A request without a body is done reading once its headers are
	// in, so a long page stream is not cut by it.
	ReadTimeout time.Duration
	// WriteTimeout bounds each write of an answer (default 30s): the
	// deadline moves forward before every write and flush, so a page
	// streamed for minutes is fine while a client that stops reading is
	// dropped after WriteTimeout.
	WriteTimeout time.Duration
	// MaxHeaderBytes bounds the request line and headers (default 16 KB).
	MaxHeaderBytes int
	// MaxConns caps open connections (MAX_CONNECTIONS, default 4096).
	MaxConns int
}

// Defaults of Limits.
const (
	DefaultReadTimeout    = 30 * time.Second
	DefaultWriteTimeout   = 30 * time.Second
	DefaultMaxHeaderBytes = 16 << 10
	DefaultMaxConns       = 4096
)

func (l Limits) withDefaults() Limits {
	if l.ReadTimeout <= 0 {
		l.ReadTimeout = DefaultReadTimeout
	}
	if l.WriteTimeout <= 0 {
		l.WriteTimeout = DefaultWriteTimeout
	}
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if l.MaxConns <= 0 {
		l.MaxConns = DefaultMaxConns
	}
	return l
}

// setDeadlines turns the server's whole-answer WriteTimeout into a
// per-write one (every write and flush first moves the deadline forward),
// and lifts the read deadline of a request that has no body: it has been
// read, and a read deadline passing while a page streams would cancel it.
// start is when the request reached the edge's handler.
func (s *Server) setDeadlines(c echo.Context, start time.Time) {
	r, res := c.Request(), c.Response()
	rc := http.NewResponseController(res.Writer)
	if r.ContentLength == 0 && len(r.TransferEncoding) == 0 {
		_ = rc.SetReadDeadline(time.Time{})
	}
	// net/http has just set the write deadline to WriteTimeout from the end
	// of the request head, so it counts as moved at start.
	res.Writer = &deadlineWriter{ResponseWriter: res.Writer, rc: rc, d: s.limits.WriteTimeout, moved: start}
}

// deadlineSlack is how stale the write deadline may get before a write moves
// it again: a write always has at least 9/10 of WriteTimeout left. Moving a
// deadline takes a lock in the runtime's poller; without the slack a cache
// hit (header and body written microseconds apart) moved it twice.
func deadlineSlack(d time.Duration) time.Duration { return min(d/10, time.Second) }

// deadlineWriter moves the connection's write deadline before each write
// when it was last moved more than deadlineSlack ago.
type deadlineWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	d     time.Duration
	moved time.Time // when the deadline was last set to moved + d
}

func (w *deadlineWriter) extend() {
	// time.Since reads only the monotonic clock, cheaper than time.Now.
	if time.Since(w.moved) >= deadlineSlack(w.d) {
		w.moved = time.Now()
		_ = w.rc.SetWriteDeadline(w.moved.Add(w.d))
	}
}

func (w *deadlineWriter) WriteHeader(status int) {
	w.extend()
	w.ResponseWriter.WriteHeader(status)
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.extend()
	return w.ResponseWriter.Write(p)
}

func (w *deadlineWriter) Flush() {
	w.extend()
	_ = w.rc.Flush()
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
