package cache

import (
	"net/http"
	"net/url"
	"strings"

	"omnibus/edge/internal/theme"
)

// Key is the cache key of a page request: the path plus the query with
// tracking parameters (utm_*, gclid, fbclid) removed and the rest sorted, so
// /?utm_source=x&b=2&a=1 and /?a=1&b=2 are the same page.
func Key(u *url.URL) string {
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery == "" {
		return path
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		// A query that does not parse is kept verbatim: a distinct page.
		return path + "?" + u.RawQuery
	}
	for name := range q {
		if isTracking(name) {
			delete(q, name)
		}
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode() // Encode sorts by name
}

func isTracking(name string) bool {
	n := strings.ToLower(name)
	return strings.HasPrefix(n, "utm_") || n == "gclid" || n == "fbclid"
}

// variantSep parts a key from the page's variant: a space, which neither an
// escaped path nor a query has.
const variantSep = " "

// accountSep parts a variant's theme from its account: a newline, which
// none of a key, a theme or an account value (compact JSON) has.
const accountSep = "\n"

// withVariant is key for the request's variant of the page: its colour
// theme (theme.Of: light, dark, or none for system, so at most three copies
// of a page, whatever the cookie says), which the renderer writes on <html>,
// and for a signed-in visitor the account header's value (the sign-in
// status and a notice, set by the edge alone: a handful of values, never
// who the visitor is), which the page's header and notice show.
func withVariant(key string, r *http.Request) string {
	t, a := theme.Of(r), first(r.Header[accountKey])
	switch {
	case a != "":
		return key + variantSep + t + accountSep + a
	case t != "":
		return key + variantSep + t
	}
	return key
}

// splitVariant parts a key into the page's key, its theme ("" for system)
// and its account header ("" for anonymous visitors).
func splitVariant(key string) (page, theme, account string) {
	page, variant, _ := strings.Cut(key, variantSep)
	theme, account, _ = strings.Cut(variant, accountSep)
	return page, theme, account
}

// keyPath is the path part of a key (purges match on it, every variant alike).
func keyPath(key string) string {
	key, _, _ = splitVariant(key)
	if i := strings.IndexByte(key, '?'); i >= 0 {
		return key[:i]
	}
	return key
}

// escapePath puts a purge path in the escaped form keys use.
func escapePath(p string) string { return (&url.URL{Path: p}).EscapedPath() }
