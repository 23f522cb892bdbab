package seo

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	httpenc "omnibus/edge/internal/httpx/encoding"
)

// file is one answer of this package, made once per build of the content:
// its bytes, its ETag, and its compressed forms. A sitemap of 10,000
// articles is 1.3 MB of XML and about a tenth of that compressed, so every
// crawler's request compressing it again, or sending it whole, would cost
// what the build saved; each coding is made once, on the first request that
// accepts it or ahead of it (site.both).
type file struct {
	body     []byte
	etag     string // of body, quoted; a coding's adds its name
	modified time.Time
	// cacheControl is its Cache-Control.
	cacheControl string

	// br and gzip are the body in each coding, each made once: a request
	// for one never waits for the other's compression.
	br, gzip coded
}

type coded struct {
	once sync.Once
	body []byte
}

func newFile(body []byte, cacheControl string, modified time.Time) *file {
	sum := sha256.Sum256(body)
	return &file{body: body, etag: fmt.Sprintf(`"%x"`, sum[:12]), modified: modified, cacheControl: cacheControl}
}

// in is the body in coding (Identity: as it is), compressed now when no
// request has asked for it before.
func (f *file) in(coding string) []byte {
	c := &f.gzip
	switch coding {
	case httpenc.Identity:
		return f.body
	case httpenc.Brotli:
		c = &f.br
	}
	c.once.Do(func() { c.body = httpenc.Bytes(coding, f.body) })
	return c.body
}

// serve answers with the body in the coding the client accepts best, its
// ETag (one per coding) and its content's date (none when zero) as
// Last-Modified, so a reader polling a feed or the sitemap gets 304 Not
// Modified.
func (f *file) serve(c echo.Context, contentType string) {
	w, r := c.Response(), c.Request()
	h := w.Header()
	coding := httpenc.Negotiate(r.Header.Get("Accept-Encoding"), true, true)
	body, etag := f.in(coding), f.etag
	if coding != httpenc.Identity {
		etag = etag[:len(etag)-1] + "-" + coding + `"`
		h.Set("Content-Encoding", coding)
	}
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", f.cacheControl)
	h.Set("Vary", "Accept-Encoding")
	h.Set("ETag", etag)
	http.ServeContent(w, r, "", f.modified, bytes.NewReader(body))
}
