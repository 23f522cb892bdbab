// Package request carries per-request facts that the server middleware works
// out once — the request id and the real client IP — to plain http.Handlers
// (the page proxy, the page cache) that do not see echo's context.
package request

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/google/uuid"
)

// HeaderRequestID is the request id header: accepted from the client (when
// well-formed), echoed on the response and passed to the renderer.
const HeaderRequestID = "X-Request-ID"

type ctxKey struct{}

type info struct {
	id           string
	clientIP     string
	trustedProxy bool
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

// With returns r carrying the request id, the client IP and whether the
// connection's peer is a trusted proxy.
func With(r *http.Request, id, clientIP string, fromTrustedProxy bool) *http.Request {
	return r.WithContext(&infoCtx{Context: r.Context(), in: info{id: id, clientIP: clientIP, trustedProxy: fromTrustedProxy}})
}

// FromTrustedProxy reports whether r came through a trusted proxy (its peer
// is loopback or in TRUSTED_PROXIES), so its forwarding headers
// (X-Forwarded-For, -Proto, -Host) may be believed. Without the server
// middleware only loopback is trusted.
func FromTrustedProxy(r *http.Request) bool {
	if in, ok := r.Context().Value(ctxKey{}).(*info); ok {
		return in.trustedProxy
	}
	return Proxies(nil).Trusts(PeerIP(r))
}

// ID is the request id set by the server middleware, else the X-Request-ID
// header, else "".
func ID(r *http.Request) string {
	if in, ok := r.Context().Value(ctxKey{}).(*info); ok {
		return in.id
	}
	return r.Header.Get(HeaderRequestID)
}

// IDFrom is the request id the server middleware put in ctx (a request's
// context), or "" (the logger adds it to every line logged with one).
func IDFrom(ctx context.Context) string {
	if in, ok := ctx.Value(ctxKey{}).(*info); ok {
		return in.id
	}
	return ""
}

// ClientIP is the visitor's address as the server middleware resolved it
// (X-Forwarded-For believed only from trusted proxies), else the
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

// Proxies are the networks whose peers are trusted reverse proxies
// (TRUSTED_PROXIES); loopback is always trusted. Forwarding headers are
// believed only from them: anyone else, a private network included, could
// forge them to dodge per-IP limits.
type Proxies []netip.Prefix

// ParseProxies reads a comma-separated list of CIDRs or single addresses
// ("10.0.0.0/8, 192.0.2.7"); empty is none.
func ParseProxies(s string) (Proxies, error) {
	var ps Proxies
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !strings.Contains(f, "/") {
			a, err := netip.ParseAddr(f)
			if err != nil {
				return nil, fmt.Errorf("TRUSTED_PROXIES: %q is not an IP address or CIDR", f)
			}
			ps = append(ps, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, fmt.Errorf("TRUSTED_PROXIES: %q is not an IP address or CIDR", f)
		}
		ps = append(ps, p.Masked())
	}
	return ps, nil
}

// Trusts reports whether ip is loopback or in one of the networks.
func (ps Proxies) Trusts(ip string) bool {
	a, err := netip.ParseAddr(strings.Trim(ip, "[]"))
	if err != nil {
		return false
	}
	a = a.Unmap()
	if a.IsLoopback() {
		return true
	}
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// IPNets are the networks as net.IPNet (for echo's IP extractor).
func (ps Proxies) IPNets() []*net.IPNet {
	out := make([]*net.IPNet, 0, len(ps))
	for _, p := range ps {
		out = append(out, &net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())})
	}
	return out
}

// NewID is a new request id: a random (version 4) UUID. Its bits come from
// math/rand/v2's generator (ChaCha8, seeded by the runtime from the OS), not
// crypto/rand: an id names a request in the logs and grants nothing, and
// every answer draws one, the cache hit included. uuid's own pool took a lock
// per id and refilled from crypto/rand; this costs a third of it.
func NewID() string {
	var u uuid.UUID
	binary.LittleEndian.PutUint64(u[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(u[8:], rand.Uint64())
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // RFC 9562 variant
	return u.String()
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
