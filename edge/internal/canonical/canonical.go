// Package canonical gives every form of a page's address one spelling
// before anything else reads it: the path cleaned, in the route table's
// letter case and one escaped form, the query cut to what the page reads
// (Canonical, CanonicalURI). It knows the route table's pages (Pages):
// which paths are pages and of which route, which the page cache
// (internal/cache) asks too. It is its own package because it runs with
// the cache off as well: the session middleware, the content redirects
// and the renderer see one address per page whether or not pages are
// stored.
package canonical

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
//   - the query keeps only the parameters the route's page reads (the route
//     table's query lists); the rest are dropped, from the cache key
//     and from what the renderer sees, so junk queries are cache hits.
//
// A purge of /features therefore reaches every address that renders it.
func (ps Pages) Canonical(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := r.URL
		if !strings.HasPrefix(u.Path, "/") {
			next.ServeHTTP(w, r) // OPTIONS * and the like
			return
		}
		spelled := ps.canonical(u.Path)
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

// canonical is the decoded path p as the site spells it: cleaned, in the
// route table's letter case, and without a file name a page was once asked
// for by (/index.html, /blog/index.html, /features.html: the page's own
// address, when that address is a page).
func (ps Pages) canonical(p string) string {
	clean := path.Clean(p)
	for _, suffix := range []string{"/index.html", "/index.htm", ".html", ".htm"} {
		if strings.HasSuffix(strings.ToLower(clean), suffix) {
			page := clean[:len(clean)-len(suffix)]
			if page == "" {
				page = "/"
			}
			if page = ps.spelling(page); ps.isPage(page) {
				return page
			}
		}
	}
	return ps.spelling(clean)
}

// isPage reports whether p (in the table's spelling) is a page of the route table.
func (ps Pages) isPage(p string) bool {
	_, ok := ps.Match(p)
	return ok && !strings.HasSuffix(p, ".data") && p != manifestPath
}

// CanonicalURI is the path and query a GET of uri should end at: the
// path as Canonical spells it, escaped once, with the query as it is (the
// page's own middleware drops what it does not read, without a redirect).
// Another host's request is sent straight there (internal/httpx/origin), so
// it takes one redirect, not two.
func (ps Pages) CanonicalURI(u *url.URL) string {
	if !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "/api/") {
		return u.RequestURI()
	}
	out := (&url.URL{Path: ps.canonical(u.Path)}).EscapedPath()
	if u.RawQuery != "" {
		out += "?" + u.RawQuery
	}
	return out
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
func (ps Pages) keptQuery(p, raw string) string {
	if raw == "" {
		return ""
	}
	page := ps.readsOf(p)
	keep := page.query
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
		case p == manifestPath || page.private && name != dataQuery:
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
func (ps Pages) knownPaths(vs []string) []string {
	var kept []string
	for _, p := range strings.Split(strings.Join(vs, ","), ",") {
		if _, known := ps.Match(p); known && p != manifestPath && p == Path(p) && len(kept) < 64 && !slices.Contains(kept, p) {
			kept = append(kept, p)
		}
	}
	if kept == nil {
		return nil
	}
	return []string{strings.Join(kept, ",")}
}

// Path is the escaped form of the cleaned, decoded path p.
func Path(p string) string {
	return (&url.URL{Path: path.Clean(p)}).EscapedPath()
}
