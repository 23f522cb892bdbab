package server

import "time"

// Limits bound what one visitor can make the server hold. Slow readers and
// slow senders are cut off by deadlines; the number of open connections is
// capped (more wait in the kernel's accept queue).
type Limits struct {
	// ReadTimeout bounds reading one request, headers and body (default
	// 30s). A request without a body is done reading once its headers are
	// in, so a long page stream is not cut by it.
	ReadTimeout time.Duration
	// WriteTimeout bounds each write of an answer (default 30s): the
	// deadline moves forward before every write and flush, so a page
	// streamed for minutes is fine while a client that stops reading is
	// dropped after WriteTimeout.
	WriteTimeout time.Duration
	// MaxHeaderBytes bounds the request line and headers (default 16 KB).
	MaxHeaderBytes int
	// MaxConns caps open connections (MAX_CONNECTIONS, default 4096).
	MaxConns int
	// MaxConnsPerClient caps one direct peer's open connections
	// (MAX_CONNECTIONS_PER_CLIENT, default 128), and never more than half of
	// MaxConns. Trusted proxies are exempt (see listener).
	MaxConnsPerClient int
}

// Defaults of Limits.
const (
	DefaultReadTimeout       = 30 * time.Second
	DefaultWriteTimeout      = 30 * time.Second
	DefaultMaxHeaderBytes    = 16 << 10
	DefaultMaxConns          = 4096
	DefaultMaxConnsPerClient = 128
)

func (l Limits) withDefaults() Limits {
	if l.ReadTimeout <= 0 {
		l.ReadTimeout = DefaultReadTimeout
	}
	if l.WriteTimeout <= 0 {
		l.WriteTimeout = DefaultWriteTimeout
	}
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if l.MaxConns <= 0 {
		l.MaxConns = DefaultMaxConns
	}
	if l.MaxConnsPerClient <= 0 {
		l.MaxConnsPerClient = DefaultMaxConnsPerClient
	}
	l.MaxConnsPerClient = max(1, min(l.MaxConnsPerClient, l.MaxConns/2))
	return l
}
