package cache

import (
	"bytes"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
)

// Compression settings for stored variants. Each page is compressed once
// per render, but a miss waits for it, so they trade a little size for time
// (measured on the landing page, 67 KB of HTML: brotli 5 with a 256 KB window
// takes 1.5 ms and is within 1% of brotli 6's size at half its time, and 12%
// larger than brotli 11, which takes 250 ms; gzip 6 takes 0.4 ms).
const (
	brotliLevel  = 5
	brotliWindow = 18 // log2 bytes: pages up to 256 KB use the whole window
	gzipLevel    = 6
)

type encoding int

const (
	identity encoding = iota
	encGzip
	encBrotli
)

func (e encoding) String() string {
	switch e {
	case encGzip:
		return "gzip"
	case encBrotli:
		return "br"
	}
	return ""
}

// compressible reports whether a response of this Content-Type gains from
// compression (HTML, React Router's data, JSON, XML, text).
func compressible(contentType string) bool {
	ct := strings.ToLower(contentType)
	return strings.HasPrefix(ct, "text/") || strings.Contains(ct, "json") ||
		strings.Contains(ct, "javascript") || strings.Contains(ct, "xml")
}

// Compressors are reused: a brotli writer allocates large tables.
var (
	gzipWriters   = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzipLevel); return w }}
	brotliWriters = sync.Pool{New: func() any {
		return brotli.NewWriterOptions(nil, brotli.WriterOptions{Quality: brotliLevel, LGWin: brotliWindow})
	}}
)

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	w := gzipWriters.Get().(*gzip.Writer)
	w.Reset(&buf)
	w.Write(b)
	w.Close()
	gzipWriters.Put(w)
	return bytes.Clone(buf.Bytes()) // exact size: entries are counted by len
}

func brotliBytes(b []byte) []byte {
	var buf bytes.Buffer
	w := brotliWriters.Get().(*brotli.Writer)
	w.Reset(&buf)
	w.Write(b)
	w.Close()
	brotliWriters.Put(w)
	return bytes.Clone(buf.Bytes())
}

// negotiate picks the best encoding the client accepts among those the entry
// has: brotli, then gzip, then identity. q=0 refuses a coding; "*" stands for
// any coding not named.
func negotiate(acceptEncoding string, haveGzip, haveBrotli bool) encoding {
	if acceptEncoding == "" || (!haveGzip && !haveBrotli) {
		return identity
	}
	br, gz := -1.0, -1.0 // -1: not mentioned
	star := -1.0
	for rest := acceptEncoding; rest != ""; {
		var part string
		part, rest, _ = strings.Cut(rest, ",")
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
				q = f
			}
		}
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "br":
			br = q
		case "gzip", "x-gzip":
			gz = q
		case "*":
			star = q
		}
	}
	if br < 0 {
		br = star
	}
	if gz < 0 {
		gz = star
	}
	switch {
	case haveBrotli && br > 0 && (br >= gz || !haveGzip):
		return encBrotli
	case haveGzip && gz > 0:
		return encGzip
	case haveBrotli && br > 0:
		return encBrotli
	}
	return identity
}
