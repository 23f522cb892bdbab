// Package request carries per-request facts that the server middleware works
// out once — the request id and the real client IP — to plain http.Handlers
// (the page proxy, the page cache) that do not see echo's context.
package request

import (
	"context"
	"net"
	"net/http"
	"strings"
)

// HeaderRequestID is the request id header: accepted from the client (when
// well-formed), echoed on the response and passed to the renderer.
const HeaderRequestID = "X-Request-ID"

type ctxKey struct{}

type info struct {
	id       string
	clientIP string
}

// infoCtx is context.WithValue(parent, ctxKey{}, &info) in one allocation
// instead of two (the value context and the boxed info): it is made on every
// request, the cache-hit path included.
type infoCtx struct {
	context.Context
	in info
}

func (c *infoCtx) Value(key any) any {
	if key == (ctxKey{}) {
		return &c.in
	}
	return c.Context.Value(key)
}

// With returns r carrying the request id and the client IP.
func With(r *http.Request, id, clientIP string) *http.Request {
	return r.WithContext(&infoCtx{Context: r.Context(), in: info{id: id, clientIP: clientIP}})
}

// ID is the request id set by the server middleware, else the X-Request-ID
// header, else "".
func ID(r *http.Request) string {
	if in, ok := r.Context().Value(ctxKey{}).(*info); ok {
		return in.id
	}
	return r.Header.Get(HeaderRequestID)
}

// ClientIP is the visitor's address as the server middleware resolved it
// (X-Forwarded-For trusted only from loopback and private proxies), else the
// peer address of the connection.
func ClientIP(r *http.Request) string {
	if in, ok := r.Context().Value(ctxKey{}).(*info); ok && in.clientIP != "" {
		return in.clientIP
	}
	return PeerIP(r)
}

// PeerIP is the address of the connection's other end, without the port.
func PeerIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// TrustedProxy reports whether ip is an address a reverse proxy in front of
// the edge may have: loopback or a private network (RFC 1918, RFC 4193).
// Forwarding headers are believed only from such peers; anything on the
// public internet could forge them.
func TrustedProxy(ip string) bool {
	p := net.ParseIP(strings.Trim(ip, "[]"))
	return p != nil && (p.IsLoopback() || p.IsPrivate())
}

// ValidID reports whether a client-supplied request id is safe to reuse in
// logs and headers: 1-128 characters of letters, digits and -_.:
func ValidID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, c := range id {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.', c == ':':
		default:
			return false
		}
	}
	return true
}
