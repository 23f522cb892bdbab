package cache

import (
	"net/url"
	"time"

	"omnibus/edge/internal/canonical"
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
}

// Policies maps request paths to the route table's cache policies.
type Policies struct {
	// pages says which route a path is a page of (internal/canonical).
	pages    canonical.Pages
	routes   []routePolicy // in the route table's order
	notFound Policy
}

type routePolicy struct {
	path   string // as the table writes it
	policy Policy
}

// NewPolicies are the cache policies of the route table of pages: every
// route's "cache", and the notFound entry's for 404s and paths the table
// does not know.
func NewPolicies(pages canonical.Pages) Policies {
	table := pages.Table()
	ps := Policies{pages: pages, notFound: policyOf(table.NotFound.Cache)}
	for _, r := range table.Routes {
		p := policyOf(r.Cache)
		p.OwnData = len(r.EdgeData) > 0
		ps.routes = append(ps.routes, routePolicy{path: r.Path, policy: p})
	}
	return ps
}

func policyOf(c shared.CachePolicy) Policy {
	return Policy{Private: c.Private, Fresh: c.Fresh, Stale: c.Stale}
}

// For returns the policy of the route that matches path, or the not-found
// policy when none does. A React Router data request (/features.data,
// /_root.data for /) follows the policy of its page.
func (ps Policies) For(path string) Policy {
	p, _ := ps.match(&url.URL{Path: path})
	return p
}

// match is For, and whether u is a page of the route table (a path it
// does not know, an unknown value of a route's parameter, or a list's page
// past its last, is not).
func (ps Policies) match(u *url.URL) (Policy, bool) {
	i, known := ps.pages.MatchURL(u)
	if i < 0 {
		return ps.notFound, known
	}
	return ps.routes[i].policy, known
}

// NotFound is the policy for 404 answers, whatever the route.
func (ps Policies) NotFound() Policy { return ps.notFound }
