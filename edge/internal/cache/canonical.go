package cache

import (
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
)

// dataQuery is the one parameter React Router's data requests
// (/features.data?_routes=…) add on their own.
const dataQuery = "_routes"

// Canonical wraps the page handler, in front of the session middleware and
// the cache, so every form of a page's address reaches them as one:
//
//   - the path is cleaned (double slashes, dot segments, a trailing slash),
//     put in the route table's letter case (/FEATURES is /features: see
//     spelling) and in its one escaped form (/%66eatures is /features); a GET or
//     HEAD for another form is redirected there (301), so //evil.example/x
//     goes to /evil.example/x, never off the site; other methods are
//     rewritten in place;
//   - the query keeps only the parameters the route's page reads (Policy.
//     Query, from the route table); the rest are dropped, from the cache key
//     and from what the renderer sees, so junk queries are cache hits.
//
// A purge of /features therefore reaches every address that renders it.
func (ps Policies) Canonical(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := r.URL
		if !strings.HasPrefix(u.Path, "/") {
			next.ServeHTTP(w, r) // OPTIONS * and the like
			return
		}
		spelled := ps.spelling(path.Clean(u.Path))
		clean := (&url.URL{Path: spelled}).EscapedPath()
		if clean == manifestPath && ps.manifestVersion != "" && u.Query().Get("version") != ps.manifestVersion {
			// An old (or made-up) build's route discovery: React Router's
			// own answer, reload the document, without asking it.
			w.Header().Set("Cache-Control", "no-store")
			w.Header().Set("X-Remix-Reload-Document", "true")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		query := ps.keptQuery(clean, u.RawQuery)
		if clean != u.EscapedPath() {
			if r.Method == http.MethodGet || r.Method == http.MethodHead {
				to := clean
				if query != "" {
					to += "?" + query
				}
				w.Header().Set("Location", to)
				w.WriteHeader(http.StatusMovedPermanently)
				return
			}
			u.Path, u.RawPath = spelled, ""
		}
		if query != u.RawQuery || u.ForceQuery {
			u.RawQuery, u.ForceQuery = query, false
		}
		r.RequestURI = u.RequestURI()
		next.ServeHTTP(w, r)
	})
}

// manifestPath is React Router's lazy route discovery endpoint
// (routeDiscovery's default manifestPath): the client asks it which routes
// match the paths it may navigate to, naming them in paths and its build in
// version. Its answer depends on both, so they are its cache key too.
const manifestPath = "/__manifest"

var manifestQuery = map[string]bool{"paths": true, "version": true}

// keptQuery is raw with only the parameters the page at p reads, sorted. A
// cached page keeps a parameter only with a value the route table declares
// (the first such value), so random values are neither renders nor cache
// entries of their own.
func (ps Policies) keptQuery(p, raw string) string {
	if raw == "" {
		return ""
	}
	policy := ps.For(p)
	keep := policy.Query
	if p == manifestPath {
		keep = manifestQuery
	}
	data := strings.HasSuffix(p, ".data")
	if len(keep) == 0 && !data {
		return ""
	}
	q, _ := url.ParseQuery(raw) // what parses; the rest is junk anyway
	for name, vs := range q {
		switch {
		case !keep[name] && !(data && name == dataQuery):
			delete(q, name)
		case p == manifestPath && name == "paths":
			q[name] = ps.knownPaths(vs)
		case p == manifestPath || policy.Private && name != dataQuery:
			// the manifest's version; a private page's own parameters
		default:
			i := slices.IndexFunc(vs, func(v string) bool { return ps.allowed(name, v) })
			if i < 0 {
				delete(q, name)
			} else {
				q[name] = vs[i : i+1]
			}
		}
		if len(q[name]) == 0 {
			delete(q, name)
		}
	}
	return q.Encode()
}

// knownPaths keeps, of the manifest's comma-separated paths, the pages of
// the route table (at most 64): the manifest of a path it does not know is
// the not-found route's, which the client falls back to anyway.
func (ps Policies) knownPaths(vs []string) []string {
	var kept []string
	for _, p := range strings.Split(strings.Join(vs, ","), ",") {
		if _, known := ps.match(p); known && p != manifestPath && p == canonicalPath(p) && len(kept) < 64 && !slices.Contains(kept, p) {
			kept = append(kept, p)
		}
	}
	if kept == nil {
		return nil
	}
	return []string{strings.Join(kept, ",")}
}

// canonicalPath is the escaped form of the cleaned, decoded path p.
func canonicalPath(p string) string {
	return (&url.URL{Path: path.Clean(p)}).EscapedPath()
}
