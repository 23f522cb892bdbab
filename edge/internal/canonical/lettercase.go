package canonical

import (
	"strings"

	"omnibus/edge/internal/routepath"
)

// spelling is p in the route table's spelling when p names a route in
// another letter case: its literal segments as the table writes them and
// its parameters (slugs, which are lower case) in lower case, so /FEATURES
// is /features and /Help/Category/Article/GST-Invoices is
// /help/category/article/gst-invoices. Any other path is returned as it is
// (a React Router data request, /x.data, keeps the spelling its page had).
// One rule for every route, before the cache: a crawler sees one URL per
// page, and the cache keeps one copy.
func (ps Pages) spelling(p string) string {
	if p == "/" || strings.HasSuffix(p, ".data") {
		return p
	}
	segs := routepath.Split(p)
	lower := make([]string, len(segs))
	for i, s := range segs {
		lower[i] = strings.ToLower(s)
	}
	for _, r := range ps.routes {
		if routepath.Match(r.segments, segs) && !hasUpperParam(r.segments, segs) {
			return p // the table's own spelling
		}
	}
	for _, r := range ps.routes {
		if !routepath.Match(r.segments, lower) {
			continue
		}
		out := make([]string, len(segs))
		for i, s := range r.segments {
			switch {
			case !strings.HasPrefix(s, ":"):
				out[i] = s
			case strings.Contains(segs[i], "%"):
				out[i] = segs[i] // an escape's hex digits keep their case
			default:
				out[i] = lower[i]
			}
		}
		return "/" + strings.Join(out, "/")
	}
	return p
}

// hasUpperParam reports whether a parameter segment of segs (matched by
// pattern) has an upper-case letter outside a percent escape.
func hasUpperParam(pattern, segs []string) bool {
	for i, s := range pattern {
		if strings.HasPrefix(s, ":") && !strings.Contains(segs[i], "%") && strings.ToLower(segs[i]) != segs[i] {
			return true
		}
	}
	return false
}
