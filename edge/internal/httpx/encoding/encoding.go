// Package encoding is the edge's one rule for compressing HTTP responses:
// which content types gain from it, which coding a client gets for its
// Accept-Encoding, and the compressors themselves (settings and pools). The
// page cache (stored variants), the static files (precompressed siblings)
// and the page proxy (streamed renders) all use it.
package encoding

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
)

// Content codings, as written in Content-Encoding. Identity is no coding.
const (
	Brotli   = "br"
	Gzip     = "gzip"
	Identity = ""
)

// Compression settings. The cache compresses each page once per render and
// a miss waits for it; a streamed page is compressed while the visitor
// waits. Both want fast settings (measured on the landing page, 67 KB of
// HTML: brotli 5 with a 256 KB window takes 1.5 ms and is within 1% of
// brotli 6's size at half its time, and 12% larger than brotli 11, which
// takes 250 ms; gzip 6 takes 0.4 ms). The window also bounds a brotli
// writer's memory per response.
const (
	BrotliLevel  = 5
	BrotliWindow = 18 // log2 bytes: pages up to 256 KB use the whole window
	GzipLevel    = 6
)

// Compressible reports whether a response of this Content-Type gains from
// compression (HTML, React Router's data, JSON, XML, text, scripts). Images,
// fonts and archives are compressed already.
func Compressible(contentType string) bool {
	ct := strings.ToLower(contentType)
	return strings.HasPrefix(ct, "text/") || strings.Contains(ct, "json") ||
		strings.Contains(ct, "javascript") || strings.Contains(ct, "xml")
}

// Negotiate picks the coding to send for an Accept-Encoding header among
// those available: Brotli, then Gzip (brotli wins at equal q), else
// Identity. q=0 refuses a coding, an unreadable q counts as 0, and "*"
// stands for any coding not named. It does not allocate: the page cache
// calls it on every hit.
func Negotiate(acceptEncoding string, haveBrotli, haveGzip bool) string {
	if acceptEncoding == "" || (!haveBrotli && !haveGzip) {
		return Identity
	}
	br, gz, star := -1.0, -1.0, -1.0 // -1: not mentioned
	for rest := acceptEncoding; rest != ""; {
		var part string
		part, rest, _ = strings.Cut(rest, ",")
		name, params, _ := strings.Cut(part, ";")
		q := quality(params)
		switch name = strings.TrimSpace(name); {
		case strings.EqualFold(name, "br"):
			br = q
		case strings.EqualFold(name, "gzip"), strings.EqualFold(name, "x-gzip"):
			gz = q
		case name == "*":
			star = q
		}
	}
	if br < 0 {
		br = star
	}
	if gz < 0 {
		gz = star
	}
	if !haveBrotli {
		br = 0
	}
	if !haveGzip {
		gz = 0
	}
	switch {
	case br > 0 && br >= gz:
		return Brotli
	case gz > 0:
		return Gzip
	}
	return Identity
}

// quality is the q of one Accept-Encoding entry's parameters (1 without one).
func quality(params string) float64 {
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		k, v, ok := strings.Cut(p, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return 0
			}
			return f
		}
	}
	return 1
}

// Writer is a compressor: brotli's and gzip's writers both fit.
type Writer interface {
	io.WriteCloser
	// Flush writes out everything written so far, so the reader can decode
	// it, without ending the stream.
	Flush() error
	Reset(w io.Writer)
}

// Compressors are reused: a brotli writer allocates large tables.
var pools = map[string]*sync.Pool{
	Brotli: {New: func() any {
		return brotli.NewWriterOptions(nil, brotli.WriterOptions{Quality: BrotliLevel, LGWin: BrotliWindow})
	}},
	Gzip: {New: func() any { w, _ := gzip.NewWriterLevel(nil, GzipLevel); return w }},
}

// NewWriter returns a pooled compressor for coding (Brotli or Gzip) writing
// to w. Give it back with PutWriter once it is closed.
func NewWriter(coding string, w io.Writer) Writer {
	c := pools[coding].Get().(Writer)
	c.Reset(w)
	return c
}

// PutWriter returns a closed compressor to its pool. It no longer holds on
// to the destination it wrote to.
func PutWriter(coding string, c Writer) {
	c.Reset(io.Discard)
	pools[coding].Put(c)
}

// Bytes compresses b with coding (Brotli or Gzip) into a slice of exactly
// its length (the page cache counts entries by len).
func Bytes(coding string, b []byte) []byte {
	var buf bytes.Buffer
	c := NewWriter(coding, &buf)
	c.Write(b)
	c.Close()
	PutWriter(coding, c)
	return bytes.Clone(buf.Bytes())
}
