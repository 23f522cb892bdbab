package cache

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
)

// recorder is the http.ResponseWriter a cache render writes to: it keeps the
// status, headers and body (up to a limit) in memory.
type recorder struct {
	header  http.Header
	status  int
	buf     bytes.Buffer
	limit   int64
	tooBig  bool
	written int64
}

func newRecorder(limit int64) *recorder {
	return &recorder{header: http.Header{}, limit: limit}
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 && status >= 200 { // 1xx come before the answer
		r.status = status
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	r.written += int64(len(p))
	if r.written > r.limit {
		r.tooBig = true
		r.buf.Reset()
		return len(p), nil // drain: the answer will not be used
	}
	return r.buf.Write(p)
}

// Flush is a no-op: the proxy flushes streams, the cache waits for the end.
func (r *recorder) Flush() {}

func (r *recorder) statusCode() int {
	if r.status == 0 {
		return http.StatusOK
	}
	return r.status
}

// incomplete says why the recorded answer cannot be trusted as a whole page,
// or "" when it can: a body larger than the cache, shorter than its declared
// length, or an HTML document that stops before </html> (a render that broke
// off mid-stream).
func (r *recorder) incomplete() string {
	if cl := r.header.Get("Content-Length"); cl != "" {
		if n, err := strconv.ParseInt(cl, 10, 64); err == nil && n != r.written {
			return "body shorter than Content-Length"
		}
	}
	if ce := r.header.Get("Content-Encoding"); ce != "" && ce != "identity" {
		return "encoded body (" + ce + ")"
	}
	if st := r.statusCode(); (st == http.StatusOK || st == http.StatusNotFound) && strings.HasPrefix(strings.ToLower(r.header.Get("Content-Type")), "text/html") {
		b := bytes.TrimRight(r.buf.Bytes(), " \t\r\n")
		if len(b) < 7 || !strings.EqualFold(string(b[len(b)-7:]), "</html>") {
			return "HTML document without </html>"
		}
	}
	return ""
}
