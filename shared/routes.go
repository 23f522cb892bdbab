package shared

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// routesJSON is routes.json: every page of the site with its layout, title,
// description and cache policy. The edge reads it only through Routes (the
// renderer through route-table.ts), so a field is declared once per language.
//
//go:embed routes.json
var routesJSON []byte

// Routes is routes.json, parsed and validated once: the edge refuses to start
// (a panic naming the fault) on a table it could not serve.
var Routes = func() *RouteTable {
	t, err := ParseRouteTable(routesJSON)
	if err != nil {
		panic("shared/routes.json: " + err.Error())
	}
	return t
}()

// RouteTable is routes.json: the same fields as route-table.ts.
type RouteTable struct {
	// Routes are the site's pages, in the table's order (the first match wins).
	Routes []Route
	// NotFound is the page of any other path (its Path is empty).
	NotFound Route
	// Redirects are the permanent redirects (/pricing → /old-pricing).
	Redirects []Redirect
	// QueryValues are the values a kept parameter of a cached page may have,
	// by parameter name.
	QueryValues map[string]QueryValues
	// LayoutQuery are the query parameters every page of a layout reads.
	LayoutQuery map[string][]string
	// LayoutForm is the form every page of a layout takes (the footer's
	// newsletter box).
	LayoutForm map[string]string
}

// Route is one page of the table (RouteEntry in route-table.ts).
type Route struct {
	ID string `json:"id"`
	// Path is React Router's pattern; parameters are ":slug".
	Path   string `json:"path"`
	Layout string `json:"layout"`
	// Module is the route module under ssr/app/routes/.
	Module      string      `json:"module"`
	Title       string      `json:"title"`
	Description string      `json:"description"`
	Cache       CachePolicy `json:"cache"`
	// Query are the query parameters the page reads (its layout's come on
	// top, RouteTable.LayoutQuery).
	Query []string `json:"query"`
	// Form is the form the page takes posted to its own address without
	// JavaScript (edge/internal/forms), or "".
	Form string `json:"form"`
	// EdgeData is the signed-in visitor's own data the edge sends the page
	// (EdgeMerchant, EdgeOrder, EdgePayment).
	EdgeData []string `json:"edgeData"`
	// NoIndex marks a transactional page: never indexed, no canonical link,
	// not in the sitemap.
	NoIndex bool `json:"noindex"`
}

// The values of a route's edgeData.
const (
	EdgeMerchant = "merchant" // the overview of the visitor's store
	EdgeOrder    = "order"    // the order ?order= names, when it is theirs
	EdgePayment  = "payment"  // the test-mode payment ?session= names, when it is theirs
)

// HasParam reports whether the route's path has a parameter (/blog/article/:slug).
func (r Route) HasParam() bool { return strings.ContainsAny(r.Path, ":*") }

// CachePolicy is a route's "cache": "private" for pages that depend on the
// visitor, or {fresh, stale} in seconds.
type CachePolicy struct {
	Private bool
	Fresh   time.Duration
	Stale   time.Duration
}

// UnmarshalJSON reads "private" or {"fresh": s, "stale": s} (both
// non-negative whole seconds).
func (p *CachePolicy) UnmarshalJSON(raw []byte) error {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "private" {
			*p = CachePolicy{Private: true}
			return nil
		}
		return fmt.Errorf("unknown cache policy %q", s)
	}
	var secs struct {
		Fresh *int `json:"fresh"`
		Stale *int `json:"stale"`
	}
	if err := json.Unmarshal(raw, &secs); err != nil || secs.Fresh == nil || secs.Stale == nil || *secs.Fresh < 0 || *secs.Stale < 0 {
		return fmt.Errorf("cache must be \"private\" or {fresh, stale} in seconds, got %s", raw)
	}
	*p = CachePolicy{Fresh: time.Duration(*secs.Fresh) * time.Second, Stale: time.Duration(*secs.Stale) * time.Second}
	return nil
}

// Redirect is one permanent redirect between two site paths.
type Redirect struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// QueryValues are the values one query parameter may have: a list, or a
// pattern the whole value must match (RE2 and JavaScript alike).
type QueryValues struct {
	List    []string
	Pattern *regexp.Regexp
}

// Allows reports whether v is one of the values.
func (q QueryValues) Allows(v string) bool {
	if q.Pattern != nil {
		return q.Pattern.MatchString(v)
	}
	return slices.Contains(q.List, v)
}

// ParseRouteTable reads and validates a route table in the shape of
// routes.json (tests build small ones; the site's is Routes).
func ParseRouteTable(data []byte) (*RouteTable, error) {
	var raw struct {
		Routes      []Route                    `json:"routes"`
		NotFound    Route                      `json:"notFound"`
		Redirects   []Redirect                 `json:"redirects"`
		QueryValues map[string]json.RawMessage `json:"queryValues"`
		LayoutQuery map[string][]string        `json:"layoutQuery"`
		LayoutForm  map[string]string          `json:"layoutForm"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("route table: %w", err)
	}
	t := &RouteTable{Routes: raw.Routes, NotFound: raw.NotFound, Redirects: raw.Redirects,
		QueryValues: map[string]QueryValues{}, LayoutQuery: raw.LayoutQuery, LayoutForm: raw.LayoutForm}
	for name, v := range raw.QueryValues {
		if strings.HasPrefix(name, "$") {
			continue
		}
		var list []string
		var pattern string
		switch {
		case json.Unmarshal(v, &list) == nil:
			t.QueryValues[name] = QueryValues{List: list}
		case json.Unmarshal(v, &pattern) == nil:
			re, err := regexp.Compile(pattern)
			if err != nil {
				return nil, fmt.Errorf("queryValues %s: %w", name, err)
			}
			t.QueryValues[name] = QueryValues{Pattern: re}
		default:
			return nil, fmt.Errorf("queryValues %s: a list of values or a pattern, got %s", name, v)
		}
	}
	if err := t.validate(); err != nil {
		return nil, err
	}
	return t, nil
}

// validate checks what the edge relies on: unique ids, site paths, known
// edgeData, declared values for every parameter a cached page keeps, and
// redirects between two different site paths.
func (t *RouteTable) validate() error {
	ids := map[string]bool{t.NotFound.ID: true}
	for _, r := range t.Routes {
		if r.ID == "" || ids[r.ID] {
			return fmt.Errorf("route %q: an id of its own is needed", r.ID)
		}
		ids[r.ID] = true
		if !strings.HasPrefix(r.Path, "/") {
			return fmt.Errorf("route %s: path %q is not a site path", r.ID, r.Path)
		}
		for _, d := range r.EdgeData {
			if d != EdgeMerchant && d != EdgeOrder && d != EdgePayment {
				return fmt.Errorf("route %s: unknown edgeData %q", r.Path, d)
			}
		}
	}
	for _, r := range append([]Route{t.NotFound}, t.Routes...) {
		if r.Cache.Private {
			continue // a private page's parameters are passed as they are
		}
		for _, name := range t.Query(r) {
			if _, ok := t.QueryValues[name]; !ok {
				return fmt.Errorf("route %s keeps parameter %s, whose values queryValues does not declare", r.ID, name)
			}
		}
	}
	for _, r := range t.Redirects {
		if !strings.HasPrefix(r.From, "/") || !strings.HasPrefix(r.To, "/") || strings.HasPrefix(r.To, "//") || r.From == r.To {
			return fmt.Errorf("redirect %q → %q must be two different site paths", r.From, r.To)
		}
	}
	return nil
}

// Query is every query parameter route r's page reads: its own and its layout's.
func (t *RouteTable) Query(r Route) []string {
	return append(slices.Clip(r.Query), t.LayoutQuery[r.Layout]...)
}

// Forms is every form route r's page takes: its own and its layout's.
func (t *RouteTable) Forms(r Route) []string {
	var forms []string
	for _, f := range []string{r.Form, t.LayoutForm[r.Layout]} {
		if f != "" {
			forms = append(forms, f)
		}
	}
	return forms
}
