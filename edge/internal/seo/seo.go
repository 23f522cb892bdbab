// Package seo answers /sitemap.xml, /robots.txt and the blog's feeds
// (/rss.xml, RSS 2.0; /atom.xml, Atom; /feed.xml and /feed redirect to
// /rss.xml) from the shared route table and
// content, with absolute URLs on PUBLIC_URL. Everything is built once at
// start: the content is embedded, so it cannot change while the edge runs.
//
// The sitemap lists every public page a search engine should index: the
// route table's entries without parameters (their slugs are not known to the
// table), without a "private" cache policy (sign-in, register, SSO: they
// depend on the visitor), without "noindex" (transactional pages such as
// /petpawlor-order-complete, which only make sense after a purchase) and
// without the template demo pages (modules under _blocks/: /blocks/...,
// /blog/posts-N, /blog/post...), which are component showcases with filler
// text, not content for searchers. The blog articles, help topics and help
// articles are added from the shared content.
//
// Every URL has a <lastmod> (lastmod.go): an article's from its front
// matter (updated:, else date: what its page shows); any other page's from
// the last change of the content files it is made of, as git recorded it at
// build time (shared/content-dates.json), never the build time. The home
// page lists its main image (image:image).
package seo

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/shared"
)

// indexed reports whether a route's page belongs in the sitemap.
func indexed(r shared.Route) bool {
	switch {
	case r.HasParam():
	case r.Cache.Private:
	case r.NoIndex:
	case strings.HasPrefix(r.Module, "_blocks/"):
	default:
		return true
	}
	return false
}

// SitemapPaths is the list of route paths in the sitemap, in table order.
func SitemapPaths() ([]string, error) {
	routes := shared.Routes.Routes
	var paths []string
	for _, r := range routes {
		if indexed(r) {
			paths = append(paths, r.Path)
		}
	}
	return paths, nil
}

// Register adds GET /sitemap.xml, /robots.txt, /rss.xml and /atom.xml to e,
// and the feed's other names (301 to /rss.xml).
// publicURL is the site's canonical origin (PUBLIC_URL).
func Register(e interface {
	Match([]string, string, echo.HandlerFunc, ...echo.MiddlewareFunc) []*echo.Route
}, publicURL string) error {
	origin := strings.TrimRight(publicURL, "/")
	pages, err := Pages()
	if err != nil {
		return err
	}
	sitemap, err := buildSitemap(origin, pages)
	if err != nil {
		return err
	}
	robots := []byte("User-agent: *\nDisallow: /api/\n\nSitemap: " + origin + "/sitemap.xml\n")
	feeds, err := buildFeeds(origin)
	if err != nil {
		return err
	}

	getHead := []string{http.MethodGet, http.MethodHead}
	e.Match(getHead, "/sitemap.xml", serve("application/xml; charset=utf-8", "public, max-age=3600", sitemap))
	e.Match(getHead, "/robots.txt", serve("text/plain; charset=utf-8", "public, max-age=3600", robots))
	e.Match(getHead, RSSPath, serve("application/rss+xml; charset=utf-8", feeds.cacheControl, feeds.rss))
	e.Match(getHead, AtomPath, serve("application/atom+xml; charset=utf-8", feeds.cacheControl, feeds.atom))
	for _, alias := range feedAliases {
		e.Match(getHead, alias, func(c echo.Context) error { return c.Redirect(http.StatusMovedPermanently, RSSPath) })
	}
	return nil
}

// serve answers with body, built at start: an ETag of its bytes lets a
// reader polling a feed or the sitemap get 304 Not Modified.
func serve(contentType, cacheControl string, body []byte) echo.HandlerFunc {
	etag := fmt.Sprintf(`"%x"`, hash(body))
	start := time.Now()
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Type", contentType)
		h.Set("Cache-Control", cacheControl)
		h.Set("ETag", etag)
		http.ServeContent(c.Response(), c.Request(), "", start, bytes.NewReader(body))
		return nil
	}
}

// Sitemap image extension (Google): the pictures a page shows.
const imageNS = "http://www.google.com/schemas/sitemap-image/1.1"

func buildSitemap(origin string, pages []Page) ([]byte, error) {
	type image struct {
		Loc string `xml:"image:loc"`
	}
	type url struct {
		Loc     string  `xml:"loc"`
		LastMod string  `xml:"lastmod"`
		Images  []image `xml:"image:image"`
	}
	doc := struct {
		XMLName xml.Name `xml:"urlset"`
		NS      string   `xml:"xmlns,attr"`
		ImageNS string   `xml:"xmlns:image,attr"`
		URLs    []url    `xml:"url"`
	}{NS: "http://www.sitemaps.org/schemas/sitemap/0.9", ImageNS: imageNS}
	for _, p := range pages {
		u := url{Loc: origin + p.Path, LastMod: p.LastMod}
		for _, src := range p.Images {
			u.Images = append(u.Images, image{Loc: origin + src})
		}
		doc.URLs = append(doc.URLs, u)
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
