package cache

import (
	"context"
	"net/http"
	"sync/atomic"

	httpenc "omnibus/edge/internal/http/encoding"
)

// Which responses are compressed, how, and which coding a client gets are
// the edge's one rule in internal/http/encoding (the page proxy compresses
// streamed pages by it too); these are the cache's names for it.

type encoding int

const (
	identity encoding = iota
	encGzip
	encBrotli
)

func (e encoding) String() string {
	switch e {
	case encGzip:
		return httpenc.Gzip
	case encBrotli:
		return httpenc.Brotli
	}
	return httpenc.Identity
}

func compressible(contentType string) bool { return httpenc.Compressible(contentType) }

// compressions counts the bodies the cache has compressed, by encoding.
var compressions [3]atomic.Int64

// Compressions is how many page bodies the cache has compressed in gzip and
// in brotli since start (tests, the bench).
func Compressions() (gzip, brotli int64) {
	return compressions[encGzip].Load(), compressions[encBrotli].Load()
}

func encodeBytes(enc encoding, b []byte) []byte {
	compressions[enc].Add(1)
	return httpenc.Bytes(enc.String(), b)
}

// Each stored page is compressed once per encoding actually asked for,
// never every encoding up front: a render compresses the one its visitor accepts (warming:
// both, in the background), and a later visitor asking for the other gets
// it made then, once.

// variant is e's body in enc, made now when no one has asked for it before.
func (e *entry) variant(enc encoding) *variant {
	if v := e.variants[enc].Load(); v != nil {
		return v
	}
	e.encMu.Lock()
	defer e.encMu.Unlock()
	if v := e.variants[enc].Load(); v != nil {
		return v
	}
	v := newVariant(encodeBytes(enc, e.body), e.hash, enc)
	e.variants[enc].Store(v)
	if e.owner != nil {
		e.owner.grow(e, len(v.body))
	}
	return v
}

// eagerEncodings are the encodings a render of orig compresses at once: the
// one orig's visitor gets, or both for a warm-up.
func eagerEncodings(orig *http.Request) []encoding {
	if orig.Context().Value(warmKey{}) != nil {
		return []encoding{encBrotli, encGzip}
	}
	if enc := negotiate(first(orig.Header["Accept-Encoding"]), true, true); enc != identity {
		return []encoding{enc}
	}
	return nil
}

// warmKey marks a warm-up's requests (warm.go).
type warmKey struct{}

func withWarm(ctx context.Context) context.Context { return context.WithValue(ctx, warmKey{}, true) }

// negotiate picks the best encoding the client accepts among those the entry
// has: brotli, then gzip, then identity.
func negotiate(acceptEncoding string, haveGzip, haveBrotli bool) encoding {
	switch httpenc.Negotiate(acceptEncoding, haveBrotli, haveGzip) {
	case httpenc.Brotli:
		return encBrotli
	case httpenc.Gzip:
		return encGzip
	}
	return identity
}
