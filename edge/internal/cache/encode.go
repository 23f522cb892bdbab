package cache

import (
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

func gzipBytes(b []byte) []byte   { return httpenc.Bytes(httpenc.Gzip, b) }
func brotliBytes(b []byte) []byte { return httpenc.Bytes(httpenc.Brotli, b) }

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
