// Package routepath matches request paths against the route table's
// patterns (shared/routes.json: "/blog/article/:slug"), segment by segment.
// The page cache picks a policy with it and the metrics a route label.
package routepath

import "strings"

// Split is p's segments without the leading and trailing slash.
func Split(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// Match reports whether segs fit pattern: the same number of segments,
// literal ones equal, ":name" ones non-empty.
func Match(pattern, segs []string) bool {
	if len(pattern) != len(segs) {
		return false
	}
	for i, s := range pattern {
		if strings.HasPrefix(s, ":") {
			if segs[i] == "" {
				return false
			}
			continue
		}
		if s != segs[i] {
			return false
		}
	}
	return true
}
