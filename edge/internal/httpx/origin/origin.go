// Package origin keeps the site on one origin, PUBLIC_URL's: a request
// whose host is any other spelling of the site's address (127.0.0.1 for
// localhost, www. for the bare domain, a second host name) is answered with
// a permanent redirect to the same path and query there, before anything
// else reads it. Sessions, CSP 'self' (form-action), e-mailed links and
// canonical URLs then all name one origin: a form posted on another host
// could not follow the site's own absolute redirects (the payment page),
// as CSP form-action refuses a cross-origin redirect.
//
// Exempt: the health probes (/healthz, /readyz: a load balancer asks by
// address) and the operators' token-authorised endpoints (/api/v1/admin/:
// a purge is sent to one edge's own address, and a redirect would carry it
// to whichever edge the public origin reaches, without its token). The rest
// of the JSON API is not: pages on the canonical origin call it
// there, the payment provider's webhook is registered with PUBLIC_URL, and
// the renderer never calls the edge (decision 0023), so an /api request on
// another host is a client that took a wrong address, and it is sent on
// like any other: 308 for a POST keeps the method and body, a cross-origin
// fetch without CORS then fails visibly rather than half-working on the
// wrong origin. The metrics listener is another server altogether.
package origin

import (
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/httpx/request"
)

// Redirect returns middleware that sends requests for any host but
// publicURL's to publicURL (301 for GET and HEAD, 308 otherwise, so a
// form post is re-posted with its body). An empty or unparsable publicURL
// turns it off. canonical, when not nil, gives a GET's path and query as the
// site spells them (canonical.Pages.CanonicalURI), so another host with an
// unusual spelling (/Features/) takes one redirect, not two; that 301 may
// be cached like any permanent redirect.
func Redirect(publicURL string, canonical func(*url.URL) string) echo.MiddlewareFunc {
	u, err := url.Parse(publicURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return func(next echo.HandlerFunc) echo.HandlerFunc { return next }
	}
	want := normalHost(u.Scheme, u.Host)
	base := u.Scheme + "://" + u.Host
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			host := Host(r)
			if host == "" || exempt(r.URL.Path) || normalHost(u.Scheme, host) == want {
				return next(c)
			}
			code := http.StatusPermanentRedirect
			if r.Method == http.MethodGet || r.Method == http.MethodHead {
				code = http.StatusMovedPermanently
			}
			uri := r.URL.RequestURI()
			if code == http.StatusMovedPermanently && canonical != nil {
				uri = canonical(r.URL)
			}
			if !strings.HasPrefix(uri, "/") || strings.HasPrefix(uri, "//") { // OPTIONS * and absolute forms
				uri = "/"
			}
			if code == http.StatusMovedPermanently {
				// The same answer for every visitor of that host and address: a
				// CDN or browser may keep it, sparing the edge the next one.
				c.Response().Header().Set("Cache-Control", "public, max-age=86400")
			} else {
				c.Response().Header().Set("Cache-Control", "no-store")
			}
			return c.Redirect(code, base+uri)
		}
	}
}

// Host is the host the visitor asked for: a trusted proxy's
// X-Forwarded-Host (its first value), else the request's Host.
func Host(r *http.Request) string {
	if h := r.Header.Get("X-Forwarded-Host"); h != "" && request.FromTrustedProxy(r) {
		h, _, _ = strings.Cut(h, ",")
		return strings.TrimSpace(h)
	}
	return r.Host
}

func exempt(p string) bool {
	return p == "/healthz" || p == "/readyz" || strings.HasPrefix(p, "/api/v1/admin/")
}

// normalHost is host in lower case, without a trailing dot and without the
// scheme's default port, so Example.com:443. and example.com are one.
func normalHost(scheme, host string) string {
	host = strings.ToLower(host)
	h, port, err := net.SplitHostPort(host)
	if err != nil {
		h, port = host, ""
	}
	h = strings.TrimSuffix(h, ".")
	if port == "" || (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		return h
	}
	return net.JoinHostPort(strings.Trim(h, "[]"), port)
}
