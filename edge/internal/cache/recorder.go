package cache

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Recorder is the http.ResponseWriter a render for keeping writes to (the
// page cache's, search's page for refused searches): it keeps the status,
// headers and body (up to a limit) in memory.
type Recorder struct {
	header  http.Header
	status  int
	buf     bytes.Buffer
	limit   int64
	tooBig  bool
	written int64
}

// NewRecorder records an answer of at most limit bytes of body: past it
// the body is dropped (TooBig).
func NewRecorder(limit int64) *Recorder {
	return &Recorder{header: http.Header{}, limit: limit}
}

func (r *Recorder) Header() http.Header { return r.header }

func (r *Recorder) WriteHeader(status int) {
	if r.status == 0 && status >= 200 { // 1xx come before the answer
		r.status = status
	}
}

func (r *Recorder) Write(p []byte) (int, error) {
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

// Flush is a no-op: the proxy flushes streams, the recording waits for the end.
func (r *Recorder) Flush() {}

// Status is the answer's status (200 when none was written).
func (r *Recorder) Status() int {
	if r.status == 0 {
		return http.StatusOK
	}
	return r.status
}

// incomplete says why the recorded answer cannot be trusted as a whole page,
// or "" when it can: a body larger than the cache, shorter than its declared
// length, or an HTML document that stops before </html> (a render that broke
// off mid-stream).
func (r *Recorder) incomplete() string {
	if cl := r.header.Get("Content-Length"); cl != "" {
		if n, err := strconv.ParseInt(cl, 10, 64); err == nil && n != r.written {
			return "body shorter than Content-Length"
		}
	}
	if ce := r.header.Get("Content-Encoding"); ce != "" && ce != "identity" {
		return "encoded body (" + ce + ")"
	}
	if st := r.Status(); (st == http.StatusOK || st == http.StatusNotFound) && strings.HasPrefix(strings.ToLower(r.header.Get("Content-Type")), "text/html") {
		b := bytes.TrimRight(r.buf.Bytes(), " \t\r\n")
		if len(b) < 7 || !strings.EqualFold(string(b[len(b)-7:]), "</html>") {
			return "HTML document without </html>"
		}
	}
	return ""
}

// Body is the recorded body (empty when TooBig).
func (r *Recorder) Body() []byte { return r.buf.Bytes() }

// TooBig reports an answer whose body passed the limit.
func (r *Recorder) TooBig() bool { return r.tooBig }

// Serve runs next into the recorder, turning the panic
// httputil.ReverseProxy raises when an upstream body breaks off (or any
// other) into an error.
func (r *Recorder) Serve(next http.Handler, req *http.Request) (err error) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				err = errors.New("upstream response broke off")
				return
			}
			err = fmt.Errorf("panic: %v", v)
		}
	}()
	next.ServeHTTP(r, req)
	return nil
}
