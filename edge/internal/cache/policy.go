package cache

import (
	"slices"
	"strings"
	"time"

	"omnibus/edge/internal/routepath"
	"omnibus/shared"
)

// Policy is how long one route's pages may be kept: Fresh, then served stale
// for up to Stale more while a background render refreshes them. Private pages
// depend on the visitor and are never stored.
type Policy struct {
	Private bool
	// OwnData: the edge hands a signed-in visitor's page their own data
	// (the route's edgeData), so such a visitor's page is never shared;
	// anonymous visitors' still is.
	OwnData bool
	Fresh   time.Duration
	Stale   time.Duration
	// Query names the query parameters the route's page reads (its own
	// "query" plus its layout's in the route table). Any other parameter is
	// dropped before the cache and the renderer see the request (Canonical).
	Query map[string]bool
}

// Policies maps request paths to the route table's cache policies.
type Policies struct {
	routes   []routePolicy
	notFound Policy
	// values: the values a cached page's kept parameter may have (the route
	// table's queryValues); ids: the route ids (React Router's _routes).
	values map[string]func(string) bool
	ids    map[string]bool
	// exists reports the pages of the routes with a parameter
	// (/blog/article/:slug) that exist (WithPages, WithPageSet); nil: every
	// value of the parameter is a page.
	exists func(path string) bool
	// manifestVersion is the client build's version (WithManifestVersion);
	// "" when unknown.
	manifestVersion string
}

type routePolicy struct {
	path     string   // as the table writes it
	segments []string // ":slug" matches any one segment
	policy   Policy
	param    bool // a segment is a parameter
}

// NewPolicies are the cache policies of the route table
// (shared.Routes): every route's "cache", and the notFound entry's for 404s
// and paths the table does not know.
func NewPolicies(table *shared.RouteTable) Policies {
	ps := Policies{notFound: policyOf(table.NotFound.Cache), values: map[string]func(string) bool{}}
	ps.notFound.Query = querySet(table.Query(table.NotFound))
	for name, v := range table.QueryValues {
		ps.values[name] = v.Allows
	}
	ps.ids = map[string]bool{"root": true, table.NotFound.ID: true}
	for _, r := range table.Routes {
		p := policyOf(r.Cache)
		p.Query = querySet(table.Query(r))
		p.OwnData = len(r.EdgeData) > 0
		segs := routepath.Split(r.Path)
		param := slices.ContainsFunc(segs, func(s string) bool { return strings.HasPrefix(s, ":") })
		ps.routes = append(ps.routes, routePolicy{path: r.Path, segments: segs, policy: p, param: param})
		ps.ids[r.ID] = true
	}
	return ps
}

// WithPages names the pages of the route table's routes with a parameter
// (the articles of /blog/article/:slug, ...): any other value of the
// parameter is the not-found page, without a render of its own.
func (ps Policies) WithPages(paths []string) Policies {
	pages := map[string]bool{}
	for _, p := range paths {
		pages[canonicalPath(p)] = true
	}
	ps.exists = func(p string) bool { return pages[p] }
	return ps
}

// WithPageSet is WithPages for a set that changes while the edge runs (the
// content store's published articles): exists is asked for a canonical
// path, on every request, so it must answer from memory.
func (ps Policies) WithPageSet(exists func(path string) bool) Policies {
	ps.exists = exists
	return ps
}

// WithManifestVersion names the client build's version (React Router's
// manifest-<version>.js): a manifest request for another version is
// answered by Canonical as React Router answers it (204, reload the
// document), without a render per made-up version.
func (ps Policies) WithManifestVersion(v string) Policies {
	ps.manifestVersion = v
	return ps
}

// allowed reports whether a cached page's parameter name may have value v.
func (ps Policies) allowed(name, v string) bool {
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

func policyOf(c shared.CachePolicy) Policy {
	return Policy{Private: c.Private, Fresh: c.Fresh, Stale: c.Stale}
}

// For returns the policy of the route that matches path, or the not-found
// policy when none does. A React Router data request (/features.data,
// /_root.data for /) follows the policy of its page.
func (ps Policies) For(path string) Policy {
	p, _ := ps.match(path)
	return p
}

// match is For, and whether path is a page of the route table (a path it
// does not know, or an unknown value of a route's parameter, is not).
func (ps Policies) match(path string) (Policy, bool) {
	if p, ok := strings.CutSuffix(path, ".data"); ok {
		path = p
		if path == "/_root" {
			path = "/"
		}
	}
	segs := routepath.Split(path)
	for _, r := range ps.routes {
		if routepath.Match(r.segments, segs) {
			if r.param && ps.exists != nil && !ps.exists(canonicalPath(path)) {
				return ps.notFound, false
			}
			return r.policy, true
		}
	}
	return ps.notFound, path == manifestPath
}

// NotFound is the policy for 404 answers, whatever the route.
func (ps Policies) NotFound() Policy { return ps.notFound }
