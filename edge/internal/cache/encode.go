package cache

import (
	"bytes"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
)

// Compression levels for stored variants. Each page is compressed once per
// render, but a miss waits for it, so the levels trade a little size for a
// render-sized budget (see bench/README.md): brotli 6 is within a few percent
// of 11 on HTML at a small fraction of its time.
const (
	brotliLevel = 6
	gzipLevel   = 6
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
	brotliWriters = sync.Pool{New: func() any { return brotli.NewWriterLevel(nil, brotliLevel) }}
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
	for _, part := range strings.Split(acceptEncoding, ",") {
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
