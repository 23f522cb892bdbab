package server

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/security"
)

// answerWriter is the writer of every answer (set by perRequest, around
// net/http's): it moves the connection's write deadline before a write when
// it was last moved more than deadlineSlack ago, turning the server's
// whole-answer WriteTimeout into a per-write one; it gives the answer's
// head the security headers (security.Policy.Headers) as it goes out; and an
// answer written whole, larger than net/http's buffer, it sends in one
// system call (conn.hold).
//
// The read deadline (ReadTimeout) needs nothing here: net/http lifts it
// itself once the request is read (before the handler runs for a request
// without a body, when its body is read otherwise), as it starts watching the
// connection for the visitor going away, so a long page stream is not cut by
// it (TestSlowReadersDoNotStarveOthers' stream outlives it).
//
// One writer for both, made once per request: echo's Response.Before would
// cost a closure and a slice per request, and the head can also go out
// through a Flush, which echo's hooks do not see.
type answerWriter struct {
	http.ResponseWriter
	rc    http.ResponseController // a copy, held here: one allocation less per request
	d     time.Duration
	moved time.Time // when the deadline was last set to moved + d

	policy   *security.Policy
	r        *http.Request
	headed   bool         // the security headers are in
	static   bool         // a static file's answer: its own, leaner set (markStatic)
	draining *atomic.Bool // the server's: the head says Connection: close

	conn  *conn // the connection, to send a whole answer in one system call
	wrote bool  // the body has been written to
}

// wrapAnswer puts an answerWriter around c's writer; start is when the
// request reached the edge's handler.
func (s *Server) wrapAnswer(c echo.Context, policy *security.Policy, start time.Time) {
	res := c.Response()
	// net/http has just set the write deadline to WriteTimeout from the end
	// of the request head, so it counts as moved at start.
	res.Writer = &answerWriter{
		ResponseWriter: res.Writer, rc: *http.NewResponseController(res.Writer),
		d: s.limits.WriteTimeout, moved: start, policy: policy, r: c.Request(),
		conn: connOf(c.Request().Context()), draining: &s.draining,
	}
}

// deadlineSlack is how stale the write deadline may get before a write moves
// it again: a write always has at least 9/10 of WriteTimeout left. Moving a
// deadline takes a lock in the runtime's poller; without the slack a cache
// hit (header and body written microseconds apart) moved it twice.
func deadlineSlack(d time.Duration) time.Duration { return min(d/10, time.Second) }

func (w *answerWriter) extend() {
	// time.Since reads only the monotonic clock, cheaper than time.Now.
	if time.Since(w.moved) >= deadlineSlack(w.d) {
		w.moved = time.Now()
		_ = w.rc.SetWriteDeadline(w.moved.Add(w.d))
	}
}

// head adds the security headers before the answer's head goes out; a 1xx
// head (103 Early Hints) goes out before the answer and does not count.
func (w *answerWriter) head(status int) {
	if !w.headed && status >= 200 {
		w.headed = true
		if w.static && status < 400 {
			w.staticHead()
		} else {
			w.policy.Headers(w.ResponseWriter.Header(), w.r)
		}
		if w.draining.Load() || (w.conn != nil && w.conn.closeAfter.Load()) {
			// net/http closes the connection once this answer is sent.
			w.ResponseWriter.Header()["Connection"] = connectionClose
		}
	}
}

// staticHead gives a static file's answer the file's header set (no
// nonce, no document-only headers) and drops the request id: a file is the
// same bytes for everyone, and the access log keeps the id.
func (w *answerWriter) staticHead() {
	h := w.ResponseWriter.Header()
	delete(h, requestIDKey)
	w.policy.StaticHeaders(h, w.r)
}

// markStatic makes c's answer a static file's (see staticHead).
func markStatic(c echo.Context) {
	if w, ok := c.Response().Writer.(*answerWriter); ok {
		w.static = true
	}
}

// connectionClose is the Connection header of every answer while the server
// drains (Server.Drain).
var connectionClose = []string{"close"}

func (w *answerWriter) WriteHeader(status int) {
	w.head(status)
	w.extend()
	w.ResponseWriter.WriteHeader(status)
}

func (w *answerWriter) Write(p []byte) (int, error) {
	w.head(http.StatusOK)
	w.extend()
	if !w.wrote {
		w.wrote = true
		if w.whole(p) {
			// Hold the connection's writes, let net/http write the head
			// and p, push its buffer out, and send it all at once.
			w.conn.hold(p)
			n, err := w.ResponseWriter.Write(p)
			if err == nil {
				err = w.rc.Flush()
			}
			if rerr := w.conn.release(); err == nil {
				err = rerr
			}
			return n, err
		}
	}
	return w.ResponseWriter.Write(p)
}

// whole reports whether p is the answer's whole body, larger than net/http's
// buffer: its Content-Length, written in one call.
func (w *answerWriter) whole(p []byte) bool {
	if w.conn == nil || len(p) < wholeMin {
		return false
	}
	cl := w.ResponseWriter.Header()["Content-Length"]
	if len(cl) != 1 {
		return false
	}
	n, err := strconv.Atoi(cl[0])
	return err == nil && n == len(p)
}

// wholeMin: a smaller answer fits net/http's buffer and goes out in one
// system call anyway.
const wholeMin = 2 << 10

func (w *answerWriter) Flush() {
	w.head(http.StatusOK)
	w.extend()
	_ = w.rc.Flush()
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *answerWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
