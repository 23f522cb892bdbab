package cache

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"omnibus/edge/internal/routepath"
)

// Policy is how long one route's pages may be kept: Fresh, then served stale
// for up to Stale more while a background render refreshes them. Private pages
// depend on the visitor and are never stored.
type Policy struct {
	Private bool
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
}

type routePolicy struct {
	path     string   // as the table writes it
	segments []string // ":slug" matches any one segment
	policy   Policy
}

// ParsePolicies reads the shared route table (shared/routes.json): every
// route's "cache" is {fresh, stale} in seconds or "private"; the notFound
// entry's policy covers 404s and paths the table does not know.
func ParsePolicies(routesJSON []byte) (Policies, error) {
	var table struct {
		NotFound struct {
			Layout string          `json:"layout"`
			Cache  json.RawMessage `json:"cache"`
			Query  []string        `json:"query"`
		} `json:"notFound"`
		LayoutQuery map[string][]string `json:"layoutQuery"`
		Routes      []struct {
			ID     string          `json:"id"`
			Path   string          `json:"path"`
			Layout string          `json:"layout"`
			Cache  json.RawMessage `json:"cache"`
			Query  []string        `json:"query"`
		} `json:"routes"`
	}
	if err := json.Unmarshal(routesJSON, &table); err != nil {
		return Policies{}, fmt.Errorf("cache: route table: %w", err)
	}
	var ps Policies
	var err error
	if ps.notFound, err = parsePolicy(table.NotFound.Cache); err != nil {
		return Policies{}, fmt.Errorf("cache: notFound: %w", err)
	}
	ps.notFound.Query = querySet(table.NotFound.Query, table.LayoutQuery[table.NotFound.Layout])
	for _, r := range table.Routes {
		p, err := parsePolicy(r.Cache)
		if err != nil {
			return Policies{}, fmt.Errorf("cache: route %s: %w", r.ID, err)
		}
		p.Query = querySet(r.Query, table.LayoutQuery[r.Layout])
		ps.routes = append(ps.routes, routePolicy{path: r.Path, segments: routepath.Split(r.Path), policy: p})
	}
	return ps, nil
}

// querySet is the union of the parameter lists (nil when empty).
func querySet(lists ...[]string) map[string]bool {
	var set map[string]bool
	for _, l := range lists {
		for _, name := range l {
			if set == nil {
				set = map[string]bool{}
			}
			set[name] = true
		}
	}
	return set
}

func parsePolicy(raw json.RawMessage) (Policy, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "private" {
			return Policy{Private: true}, nil
		}
		return Policy{}, fmt.Errorf("unknown cache policy %q", s)
	}
	var secs struct {
		Fresh *int `json:"fresh"`
		Stale *int `json:"stale"`
	}
	if err := json.Unmarshal(raw, &secs); err != nil || secs.Fresh == nil || secs.Stale == nil || *secs.Fresh < 0 || *secs.Stale < 0 {
		return Policy{}, fmt.Errorf("cache must be \"private\" or {fresh, stale} in seconds, got %s", raw)
	}
	return Policy{Fresh: time.Duration(*secs.Fresh) * time.Second, Stale: time.Duration(*secs.Stale) * time.Second}, nil
}

// For returns the policy of the route that matches path, or the not-found
// policy when none does. A React Router data request (/features.data,
// /_root.data for /) follows the policy of its page.
func (ps Policies) For(path string) Policy {
	if p, ok := strings.CutSuffix(path, ".data"); ok {
		path = p
		if path == "/_root" {
			path = "/"
		}
	}
	segs := routepath.Split(path)
	for _, r := range ps.routes {
		if routepath.Match(r.segments, segs) {
			return r.policy
		}
	}
	return ps.notFound
}

// NotFound is the policy for 404 answers, whatever the route.
func (ps Policies) NotFound() Policy { return ps.notFound }
