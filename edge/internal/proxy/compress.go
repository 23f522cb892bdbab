package proxy

import (
	"net/http"
	"strconv"
	"strings"

	"omnibus/edge/internal/httpx/encoding"
)

// minCompressSize: a body declared smaller than this is sent as it is. It
// fits in one TCP packet either way, so compressing it saves no round trip.
const minCompressSize = 1024

// compressWriter compresses a streamed answer of the renderer on its way to
// the visitor, in the coding the request accepts (encoding.Negotiate). The
// renderer does not compress and the page cache only compresses what it
// stores, so without it private pages (/login, signed-in visitors, cache
// bypasses) travel raw.
//
// Streaming stays intact: ReverseProxy (FlushInterval -1) flushes after
// every chunk it reads from the renderer, and Flush pushes what the
// compressor holds to the visitor before flushing the connection. Memory is
// one pooled compressor per response (its window is bounded by
// encoding.BrotliWindow), for at most Options.MaxCompressing responses at
// once; the body is never buffered whole.
//
// The page cache asks for its renders with Accept-Encoding: identity (it
// compresses each stored page once, itself), so nothing is compressed twice.
type compressWriter struct {
	http.ResponseWriter
	accept string // the request's Accept-Encoding
	head   bool   // a HEAD request: no body to compress
	slots  chan struct{}
	held   bool // this answer holds one of slots

	decided bool
	coding  string          // encoding.Brotli or encoding.Gzip when compressing
	enc     encoding.Writer // nil unless compressing
	dirty   bool            // enc holds bytes not yet flushed
}

func newCompressWriter(w http.ResponseWriter, r *http.Request, slots chan struct{}) *compressWriter {
	return &compressWriter{ResponseWriter: w, accept: r.Header.Get("Accept-Encoding"), head: r.Method == http.MethodHead, slots: slots}
}

// acquire takes a compression slot if one is free.
func (c *compressWriter) acquire() bool {
	select {
	case c.slots <- struct{}{}:
		c.held = true
	default:
	}
	return c.held
}

// release gives the slot back once the answer is over, however it ended.
func (c *compressWriter) release() {
	if c.held {
		c.held = false
		<-c.slots
	}
}

// WriteHeader decides, from the status and the renderer's headers, whether
// this answer is compressed, and sets the headers that say so.
func (c *compressWriter) WriteHeader(status int) {
	if c.decided || status < 200 { // 1xx (103 Early Hints) come before the answer
		c.ResponseWriter.WriteHeader(status)
		return
	}
	c.decided = true
	h := c.ResponseWriter.Header()
	if c.compressible(status, h) {
		// The answer depends on Accept-Encoding whatever this visitor gets.
		h.Add("Vary", "Accept-Encoding")
		// With every slot taken the answer goes out as it is: it costs
		// bandwidth, never memory.
		if c.coding = encoding.Negotiate(c.accept, true, true); c.coding != encoding.Identity && c.acquire() {
			h.Set("Content-Encoding", c.coding)
			h.Del("Content-Length")
			// A strong validator names these exact bytes, which the
			// compressor changes; the weak one still holds.
			if etag := h.Get("ETag"); strings.HasPrefix(etag, `"`) {
				h.Set("ETag", "W/"+etag)
			}
			c.enc = encoding.NewWriter(c.coding, c.ResponseWriter)
		}
	}
	c.ResponseWriter.WriteHeader(status)
}

// compressible reports whether an answer with this status and these
// headers may be compressed: a body of a compressible type, not encoded
// already, not a byte range, not marked no-transform, not tiny.
func (c *compressWriter) compressible(status int, h http.Header) bool {
	if c.head || status == http.StatusNoContent || status == http.StatusNotModified ||
		status == http.StatusPartialContent || h.Get("Content-Encoding") != "" || h.Get("Content-Range") != "" ||
		!encoding.Compressible(h.Get("Content-Type")) ||
		strings.Contains(strings.ToLower(strings.Join(h.Values("Cache-Control"), ",")), "no-transform") {
		return false
	}
	n, err := strconv.ParseInt(h.Get("Content-Length"), 10, 64)
	return err != nil || n >= minCompressSize // a stream has no length: compress
}

func (c *compressWriter) Write(p []byte) (int, error) {
	if !c.decided {
		c.WriteHeader(http.StatusOK)
	}
	if c.enc == nil {
		return c.ResponseWriter.Write(p)
	}
	c.dirty = true
	return c.enc.Write(p)
}

// FlushError sends everything written so far to the visitor: the
// compressor's pending output first, then the connection's buffer.
// http.ResponseController (which ReverseProxy flushes through) prefers it.
func (c *compressWriter) FlushError() error {
	if !c.decided {
		c.WriteHeader(http.StatusOK)
	}
	if c.enc != nil && c.dirty {
		c.dirty = false
		if err := c.enc.Flush(); err != nil {
			return err
		}
	}
	return http.NewResponseController(c.ResponseWriter).Flush()
}

// Flush is http.Flusher's form of FlushError.
func (c *compressWriter) Flush() { c.FlushError() }

// Unwrap lets http.ResponseController reach the real writer (write
// deadlines).
func (c *compressWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// finish ends the compressed stream after a complete answer and returns the
// compressor to its pool. After a broken stream it is not called: the
// connection is aborted and the compressor left to the garbage collector.
func (c *compressWriter) finish() {
	if c.enc == nil {
		return
	}
	c.enc.Close()
	encoding.PutWriter(c.coding, c.enc)
	c.enc = nil
}
