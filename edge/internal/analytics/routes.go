package analytics

import (
	"strings"

	"omnibus/edge/internal/routepath"
	"omnibus/shared"
)

// routeIndex numbers the route table's pages, so a view is an atomic add at
// a fixed index: a map lookup for the paths of static routes, a walk of the
// patterns with parameters (/blog/article/:slug) for the others.
type routeIndex struct {
	patterns   []string
	withParams []bool // by index: the pattern has parameters
	exact      map[string]int
	params     []paramRoute
}

type paramRoute struct {
	i    int
	segs []string
}

func indexRoutes(table *shared.RouteTable) routeIndex {
	ri := routeIndex{exact: map[string]int{}}
	for i, r := range table.Routes {
		ri.patterns = append(ri.patterns, r.Path)
		ri.withParams = append(ri.withParams, strings.Contains(r.Path, "/:"))
		if strings.Contains(r.Path, "/:") {
			ri.params = append(ri.params, paramRoute{i, routepath.Split(r.Path)})
		} else {
			ri.exact[r.Path] = i
		}
	}
	return ri
}

// of is the index of the route path belongs to, or -1. A React Router data
// request (/features.data, /_root.data for /: a client-side navigation) is
// its page's.
func (ri *routeIndex) of(path string) int {
	if p, ok := strings.CutSuffix(path, ".data"); ok {
		path = p
		if path == "/_root" {
			path = "/"
		}
	}
	if i, ok := ri.exact[path]; ok {
		return i
	}
	if len(ri.params) == 0 || path == "/" {
		return -1
	}
	segs := routepath.Split(path)
	for _, r := range ri.params {
		if routepath.Match(r.segs, segs) {
			return r.i
		}
	}
	return -1
}

// hasParams reports whether route i's pattern has parameters.
func (ri *routeIndex) hasParams(i int) bool { return ri.withParams[i] }
