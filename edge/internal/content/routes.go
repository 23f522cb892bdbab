package content

import (
	"strings"
	"sync"

	"omnibus/shared"
)

// siteRoutes is what the store needs of the route table: its pages without
// a parameter (a redirect may not shadow one; a link may point to one) and
// the pages that list articles.
type siteRoutes struct {
	static map[string]bool
	// blogLists are the pages that show the blog's list (the index and the
	// component catalogue's pages, whose demos draw the real articles).
	blogLists []string
}

var routes = sync.OnceValue(func() *siteRoutes {
	r := &siteRoutes{static: map[string]bool{}}
	for _, rt := range shared.Routes.Routes {
		if rt.HasParam() {
			continue
		}
		r.static[rt.Path] = true
		if rt.ID == "blog" || strings.HasPrefix(rt.Module, "_blocks/") {
			r.blogLists = append(r.blogLists, rt.Path)
		}
	}
	return r
})

// IsRoutePage reports a page of the route table without a parameter.
func IsRoutePage(path string) bool {
	return routes().static[strings.TrimSuffix(path, "/")] || path == "/" && routes().static["/"]
}

// The public pages a change of an item of typ may alter, besides its own.
func affected(typ string, slugs []string, extra ...string) []string {
	var paths []string
	add := func(p ...string) { paths = append(paths, p...) }
	for _, s := range slugs {
		if s != "" {
			// A short link's /go/<name> is never cached, but its purge is
			// how the other edges learn to reload their links.
			if p := PagePath(typ, s); p != "" {
				add(p)
			}
		}
	}
	switch typ {
	case TypeBlog:
		add(routes().blogLists...)
		add("/rss.xml", "/atom.xml", "/sitemap.xml")
	case TypeHelp, TypeHelpCategory:
		add("/help", "/help-centre", "/help/rss.xml", "/help/atom.xml", "/sitemap.xml")
	case TypePolicy:
		add("/sitemap.xml")
	}
	add(extra...)
	return paths
}
