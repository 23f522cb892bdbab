package content

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"omnibus/shared"
)

// siteRoutes is what the store needs of the route table: its pages without
// a parameter (a redirect may not shadow one; a link may point to one) and
// the pages that list articles. (It reads routes.json itself until the route
// table has its one Go type in shared.)
type siteRoutes struct {
	static map[string]bool
	// blogLists are the pages that show the blog's list (the index and the
	// demo blocks that draw it).
	blogLists []string
}

var routesOnce = sync.OnceValues(func() (*siteRoutes, error) {
	var table struct {
		Routes []struct {
			ID     string `json:"id"`
			Path   string `json:"path"`
			Module string `json:"module"`
		} `json:"routes"`
	}
	if err := json.Unmarshal(shared.RoutesJSON, &table); err != nil {
		return nil, fmt.Errorf("content: routes.json: %w", err)
	}
	r := &siteRoutes{static: map[string]bool{}}
	for _, rt := range table.Routes {
		if strings.ContainsAny(rt.Path, ":*") {
			continue
		}
		r.static[rt.Path] = true
		if rt.ID == "blog" || rt.Module == "_blocks/blog-demo.tsx" {
			r.blogLists = append(r.blogLists, rt.Path)
		}
	}
	return r, nil
})

func routes() *siteRoutes {
	r, err := routesOnce()
	if err != nil {
		panic(err) // the embedded table is checked by its own tests
	}
	return r
}

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
			if p := PagePath(typ, s); p != "" && typ != TypeCampaignLink {
				add(p)
			}
		}
	}
	switch typ {
	case TypeBlog:
		add(routes().blogLists...)
		add("/rss.xml", "/atom.xml", "/sitemap.xml")
	case TypeHelp, TypeHelpCategory:
		add("/help", "/help-centre", "/sitemap.xml")
	case TypePolicy:
		add("/sitemap.xml")
	}
	add(extra...)
	return paths
}
