// Package seo answers /sitemap.xml and /robots.txt from the shared route
// table, with absolute URLs on PUBLIC_URL.
//
// The sitemap lists every public page a search engine should index: the
// route table's entries without parameters (their slugs are not known to the
// table), without a "private" cache policy (sign-in, register, SSO: they
// depend on the visitor) and without the template demo pages (modules under
// _blocks/: /blocks/..., /blog/posts-N, /blog/post...), which are component
// showcases with filler text, not content for searchers. The blog articles,
// help topics and help articles are added from the shared content.
package seo

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/content"
	"omnibus/shared"
)

type route struct {
	Path   string          `json:"path"`
	Module string          `json:"module"`
	Cache  json.RawMessage `json:"cache"`
}

// SitemapPaths is the list of route paths in the sitemap, in table order.
func SitemapPaths() ([]string, error) {
	var table struct {
		Routes []route `json:"routes"`
	}
	if err := json.Unmarshal(shared.RoutesJSON, &table); err != nil {
		return nil, fmt.Errorf("seo: routes.json: %w", err)
	}
	var paths []string
	for _, r := range table.Routes {
		switch {
		case strings.ContainsAny(r.Path, ":*"):
		case string(r.Cache) == `"private"`:
		case strings.HasPrefix(r.Module, "_blocks/"):
		default:
			paths = append(paths, r.Path)
		}
	}
	return paths, nil
}

// Register adds GET /sitemap.xml and GET /robots.txt to e. publicURL is the
// site's canonical origin (PUBLIC_URL).
func Register(e *echo.Echo, publicURL string) error {
	origin := strings.TrimRight(publicURL, "/")
	paths, err := SitemapPaths()
	if err != nil {
		return err
	}
	// Every article and help topic, whose slugs the route table cannot know.
	articles, err := content.Paths()
	if err != nil {
		return err
	}
	paths = append(paths, articles...)
	sitemap, err := buildSitemap(origin, paths)
	if err != nil {
		return err
	}
	robots := []byte("User-agent: *\nDisallow: /api/\n\nSitemap: " + origin + "/sitemap.xml\n")

	getHead := []string{http.MethodGet, http.MethodHead}
	e.Match(getHead, "/sitemap.xml", func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "public, max-age=3600")
		return c.Blob(http.StatusOK, "application/xml; charset=utf-8", sitemap)
	})
	e.Match(getHead, "/robots.txt", func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "public, max-age=3600")
		return c.Blob(http.StatusOK, "text/plain; charset=utf-8", robots)
	})
	return nil
}

func buildSitemap(origin string, paths []string) ([]byte, error) {
	type url struct {
		Loc string `xml:"loc"`
	}
	doc := struct {
		XMLName xml.Name `xml:"urlset"`
		NS      string   `xml:"xmlns,attr"`
		URLs    []url    `xml:"url"`
	}{NS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	for _, p := range paths {
		doc.URLs = append(doc.URLs, url{Loc: origin + p})
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
