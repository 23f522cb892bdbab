package canonical

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"omnibus/edge/internal/routepath"
	"omnibus/shared"
)

// Pages is what the route table says of page addresses: which paths are
// pages (and of which route), how the table spells them, and which query
// parameters and values each page reads.
type Pages struct {
	table    *shared.RouteTable
	routes   []route // in the table's order
	notFound reads
	// values: the values a cached page's kept parameter may have (the route
	// table's queryValues); ids: the route ids (React Router's _routes).
	values map[string]func(string) bool
	ids    map[string]bool
	// exists reports the pages of the routes with a parameter
	// (/blog/article/:slug) that exist (WithPages, WithPageSet); nil: every
	// value of the parameter is a page.
	exists func(path string) bool
	// pageParam and pageCount: a list page's page number parameter
	// (?page=2) and how many pages the list at a path has (WithPageCount);
	// a number past the last is no page.
	pageParam string
	pageCount func(path string) int
	// manifestVersion is the client build's version (WithManifestVersion);
	// "" when unknown.
	manifestVersion string
}

// reads is what a page reads of its query.
type reads struct {
	// query names the parameters the route's page reads (its own "query"
	// plus its layout's in the route table); Canonical drops any other.
	query map[string]bool
	// private: the page depends on the visitor, so its own parameters keep
	// any value (a shared page's only the values the table declares).
	private bool
}

type route struct {
	path     string   // as the table writes it
	segments []string // ":slug" matches any one segment
	reads    reads
	param    bool // a segment is a parameter
}

// New is the pages of the route table (shared.Routes).
func New(table *shared.RouteTable) Pages {
	ps := Pages{table: table, values: map[string]func(string) bool{}}
	ps.notFound = reads{query: querySet(table.Query(table.NotFound)), private: table.NotFound.Cache.Private}
	for name, v := range table.QueryValues {
		ps.values[name] = v.Allows
	}
	ps.ids = map[string]bool{"root": true, table.NotFound.ID: true}
	for _, r := range table.Routes {
		segs := routepath.Split(r.Path)
		param := slices.ContainsFunc(segs, func(s string) bool { return strings.HasPrefix(s, ":") })
		ps.routes = append(ps.routes, route{path: r.Path, segments: segs, reads: reads{query: querySet(table.Query(r)), private: r.Cache.Private}, param: param})
		ps.ids[r.ID] = true
	}
	return ps
}

// Table is the route table the pages are of.
func (ps Pages) Table() *shared.RouteTable { return ps.table }

// WithPages names the pages of the route table's routes with a parameter
// (the articles of /blog/article/:slug, ...): any other value of the
// parameter is the not-found page, without a render of its own.
func (ps Pages) WithPages(paths []string) Pages {
	pages := map[string]bool{}
	for _, p := range paths {
		pages[Path(p)] = true
	}
	ps.exists = func(p string) bool { return pages[p] }
	return ps
}

// WithPageSet is WithPages for a set that changes while the edge runs (the
// content store's published articles): exists is asked for a canonical
// path, on every request, so it must answer from memory.
func (ps Pages) WithPageSet(exists func(path string) bool) Pages {
	ps.exists = exists
	return ps
}

// WithPageCount names a list page's page number parameter and how many
// pages the list at a (canonical) path has now, answered from memory on
// every page miss; 0 when the path is no list or the count is not known
// yet. A number past the last (/blog?page=500) is then no page: the shared
// not-found page, without a render or a cache entry of its own, as any
// other path no page has.
func (ps Pages) WithPageCount(param string, count func(path string) int) Pages {
	ps.pageParam, ps.pageCount = param, count
	return ps
}

// WithManifestVersion names the client build's version (React Router's
// manifest-<version>.js): a manifest request for another version is
// answered by Canonical as React Router answers it (204, reload the
// document), without a render per made-up version.
func (ps Pages) WithManifestVersion(v string) Pages {
	ps.manifestVersion = v
	return ps
}

// Match is the index in the route table's Routes of the route whose page
// path is, or -1 when none is; known is whether path is a page at all (a
// path the table does not know, or an unknown value of a route's
// parameter, is not; React Router's manifest is, of no route). A React
// Router data request (/features.data, /_root.data for /) is its page's.
func (ps Pages) Match(path string) (route int, known bool) {
	route, known, _ = ps.match(path)
	return route, known
}

// MatchURL is Match for a page's address with its (canonical) query: a
// list page's number past its last page is no page either.
func (ps Pages) MatchURL(u *url.URL) (route int, known bool) {
	route, known, path := ps.match(u.Path)
	if route < 0 || ps.pageCount == nil || !ps.routes[route].reads.query[ps.pageParam] || !strings.Contains(u.RawQuery, ps.pageParam+"=") {
		return route, known
	}
	n, err := strconv.Atoi(u.Query().Get(ps.pageParam))
	if last := ps.pageCount(Path(path)); err == nil && last > 0 && n > last {
		return -1, false
	}
	return route, known
}

// match is Match, and the page's path (a data request's page's).
func (ps Pages) match(path string) (route int, known bool, page string) {
	if p, ok := strings.CutSuffix(path, ".data"); ok {
		path = p
		if path == "/_root" {
			path = "/"
		}
	}
	segs := routepath.Split(path)
	for i, r := range ps.routes {
		if routepath.Match(r.segments, segs) {
			if r.param && ps.exists != nil && !ps.exists(Path(path)) {
				return -1, false, path
			}
			return i, true, path
		}
	}
	return -1, path == manifestPath, path
}

// readsOf is what the page at path reads of its query (the not-found
// page's for a path that is no page).
func (ps Pages) readsOf(path string) reads {
	if i, _ := ps.Match(path); i >= 0 {
		return ps.routes[i].reads
	}
	return ps.notFound
}

// allowed reports whether a cached page's parameter name may have value v.
func (ps Pages) allowed(name, v string) bool {
	if name == dataQuery { // React Router's data request: route ids
		for _, id := range strings.Split(v, ",") {
			if !ps.ids[id] {
				return false
			}
		}
		return true
	}
	ok := ps.values[name]
	return ok != nil && ok(v)
}

// querySet is the set of the parameter names (nil when empty).
func querySet(names []string) map[string]bool {
	var set map[string]bool
	for _, name := range names {
		if set == nil {
			set = map[string]bool{}
		}
		set[name] = true
	}
	return set
}
