package server

import (
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/labstack/echo/v4"

	"omnibus/shared"
)

// Request bounds the edge enforces before any handler runs. The renderer
// (Node) refuses more than 48 KB of request head with its own 431 (room for
// the state of a refused form post the edge adds: internal/forms), so the
// edge stops well before that, with a small answer and one log line.
const (
	// MaxURLBytes bounds the request target (path and query): 414 past it.
	MaxURLBytes = 8 << 10
	// MaxHeadBytes bounds the request line and header fields together: 431
	// past it. Requests beyond http.Server's MaxHeaderBytes never reach a
	// handler; Go answers those with its own short 431.
	MaxHeadBytes = 14 << 10
	// maxLoggedPath bounds the path in a log line.
	maxLoggedPath = 512
)

// edgeKeys are shared/http.json's X-Omnibus-* headers in canonical form:
// only the edge sets them (the account, the nonce, a refused form's state,
// a journey page's data), so any incoming copy is removed.
var edgeKeys = func() []string {
	keys := make([]string, len(shared.EdgeHeaders))
	for i, h := range shared.EdgeHeaders {
		keys[i] = http.CanonicalHeaderKey(h)
	}
	return keys
}()

// allowedMethods are the methods the site answers; TRACE, CONNECT and
// anything unknown get 405 (TRACE would echo credentials, CONNECT is not a
// proxy's to answer here).
var allowedMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true,
}

const allowHeader = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"

// guard answers requests no handler should see: unknown or unsafe methods
// (405), URLs and request heads past their bounds (414, 431), and the
// renderer's private paths (404: only the edge talks to the renderer). It
// removes every incoming header only the edge sets (edgeKeys).
func guard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		for _, k := range edgeKeys {
			delete(r.Header, k)
		}
		if !allowedMethods[r.Method] {
			c.Response().Header().Set("Allow", allowHeader)
			return echo.NewHTTPError(http.StatusMethodNotAllowed, "Method not allowed")
		}
		if len(r.RequestURI) > MaxURLBytes {
			return echo.NewHTTPError(http.StatusRequestURITooLong, "URL too long")
		}
		if headSize(r) > MaxHeadBytes {
			return echo.NewHTTPError(http.StatusRequestHeaderFieldsTooLarge, "Request headers too large")
		}
		if rendererPath(r.URL) {
			return echo.NewHTTPError(http.StatusNotFound, "Not found")
		}
		return next(c)
	}
}

// headSize approximates the bytes of the request line and header fields.
func headSize(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n + len(r.Host) + 8
}

// rendererPath reports whether u names one of the renderer's own endpoints
// (/__renderer/...), in any spelling the renderer's router might accept:
// escaped, with doubled or dot segments, in any case.
func rendererPath(u *url.URL) bool {
	// Every spelling below decodes to a path holding "__" (u.Path is decoded
	// once, as the renderer's router decodes it), and nothing below adds a
	// '_': most paths need no more than this look.
	if !strings.Contains(u.Path, "__") {
		return false
	}
	p := u.Path
	if raw, err := url.PathUnescape(u.EscapedPath()); err == nil {
		p = raw
	}
	p = strings.ToLower(path.Clean("/" + strings.ReplaceAll(p, "\\", "/")))
	return p == "/__renderer" || strings.HasPrefix(p, "/__renderer/")
}

// clip bounds s for a log line.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
