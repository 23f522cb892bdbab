// Package seo answers /sitemap.xml, /robots.txt, the blog's feeds
// (/rss.xml, RSS 2.0; /atom.xml, Atom; /feed.xml and /feed redirect to
// /rss.xml) and the help centre's (/help/rss.xml, /help/atom.xml;
// /help/feed.xml redirects) from the shared route table and
// content, with absolute URLs on PUBLIC_URL. The sitemap and the feeds are
// built from the content store's published items, again on the first
// request after they changed (Source.Version).
//
// The sitemap lists every public page a search engine should index: the
// route table's entries without parameters (their slugs are not known to the
// table), without a "private" cache policy (sign-in, register, SSO: they
// depend on the visitor), without "noindex" (transactional pages such as
// /petpawlor-order-complete, which only make sense after a purchase) and
// without the template demo pages (modules under _blocks/: /blocks/...,
// /blog/posts-N, /blog/post...), which are component showcases with filler
// text, not content for searchers. The published blog articles, help
// topics and help articles are added from the content store; an unpublished
// one drops out.
//
// Every URL has a <lastmod> (lastmod.go): an article's from its front
// matter (updated:, else date: what its page shows); any other page's from
// the last change of the content files it is made of, as git recorded it at
// build time (shared/content-dates.json), never the build time. The home
// page lists its main image (image:image).
package seo

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/content"
	httpenc "omnibus/edge/internal/httpx/encoding"
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

// Source is where the published articles and help categories come from:
// the content store. Version changes whenever they may have.
type Source interface {
	Articles(ctx context.Context, typ string) ([]content.Summary, error)
	Categories(ctx context.Context) ([]content.Category, error)
	Policies(ctx context.Context) ([]content.Policy, error)
	// Newest lists the n newest articles of typ with their HTML.
	Newest(ctx context.Context, typ string, n int) ([]content.Article, error)
	Version() uint64
}

// MaxFeedItems is how many of the newest articles a feed carries: a
// reader polls it, so it holds what is new, not the archive (a blog of
// 10,000 articles would make every poll megabytes).
const MaxFeedItems = 50

// MaxSitemapURLs is the sitemap protocol's limit per file: past it
// /sitemap.xml is an index of /sitemap-N.xml files of at most this many.
var MaxSitemapURLs = 50000

// built is everything answered from the published content, built for one
// Version of it.
type built struct {
	version uint64
	// sitemaps: [0] is /sitemap.xml (the index when there are more), each
	// dated by the newest lastmod it lists.
	sitemaps []*file
	feeds    map[string]*builtFeeds // by feedSpec.route
}

// files are every answer b holds.
func (b *built) files() []*file {
	fs := append([]*file{}, b.sitemaps...)
	for _, f := range b.feeds {
		fs = append(fs, f.rss, f.atom)
	}
	return fs
}

type site struct {
	origin string
	src    Source
	// The sitemap and the feeds are built apart, each under its own lock:
	// a feed reader never waits for a sitemap of 10,000 articles.
	sitemap, feeds part
}

// part is one of what is built from the content, for one version of it.
type part struct {
	mu  sync.Mutex
	cur *built
}

// current is the part's build for the source's version, rebuilt (by build)
// when it moved. When the source cannot be read (the database is down) the
// last build is served; without one, the error.
func (s *site) current(ctx context.Context, p *part, build func(context.Context, uint64) (*built, error)) (*built, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v := s.src.Version()
	if p.cur != nil && p.cur.version == v {
		return p.cur, nil
	}
	b, err := build(ctx, v)
	if err != nil {
		if p.cur != nil {
			return p.cur, nil
		}
		return nil, err
	}
	p.cur = b
	return b, nil
}

func (s *site) currentSitemap(ctx context.Context) (*built, error) {
	return s.current(ctx, &s.sitemap, s.buildSitemap)
}

func (s *site) currentFeeds(ctx context.Context) (*built, error) {
	return s.current(ctx, &s.feeds, s.buildFeeds)
}

func (s *site) buildSitemap(ctx context.Context, v uint64) (*built, error) {
	pages, err := Pages(ctx, s.src)
	if err != nil {
		return nil, err
	}
	sitemaps, err := buildSitemaps(s.origin, pages)
	if err != nil {
		return nil, err
	}
	b := &built{version: v}
	for i, mod := range sitemapDates(pages) {
		b.sitemaps = append(b.sitemaps, newFile(sitemaps[i], sitemapCacheControl, mod))
	}
	return b, nil
}

func (s *site) buildFeeds(ctx context.Context, v uint64) (*built, error) {
	b := &built{version: v, feeds: map[string]*builtFeeds{}}
	for _, spec := range feedSpecs {
		full, err := s.src.Newest(ctx, spec.typ, MaxFeedItems)
		if err != nil {
			return nil, err
		}
		if b.feeds[spec.route], err = buildFeeds(s.origin, spec, full); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// both builds the feeds and the sitemap for the current version and
// compresses them in every coding before it returns, so no request after
// it waits for a build or a compression (brotli of a 10,000-article
// sitemap is about 20 ms; made in the background instead, it took a core
// from the requests right after a publish).
func (s *site) both(ctx context.Context) error {
	var files []*file
	feeds, err := s.currentFeeds(ctx)
	if err == nil {
		files = append(files, feeds.files()...)
	}
	sitemap, err2 := s.currentSitemap(ctx)
	if err2 == nil {
		files = append(files, sitemap.files()...)
	} else if err == nil {
		err = err2
	}
	for _, f := range files {
		f.in(httpenc.Gzip)
		f.in(httpenc.Brotli)
	}
	return err
}

// sitemapCacheControl is the sitemaps' (and robots.txt's) Cache-Control.
const sitemapCacheControl = "public, max-age=3600"

// sitemapDates are the Last-Modified of buildSitemaps' files: the newest
// lastmod of the pages each lists (the index: of them all).
func sitemapDates(pages []Page) []time.Time {
	newest := func(ps []Page) time.Time {
		last := ""
		for _, p := range ps {
			last = max(last, p.LastMod)
		}
		t, _ := time.Parse(time.DateOnly, last)
		return t
	}
	out := []time.Time{newest(pages)}
	if len(pages) > MaxSitemapURLs {
		for i := 0; i < len(pages); i += MaxSitemapURLs {
			out = append(out, newest(pages[i:min(i+MaxSitemapURLs, len(pages))]))
		}
	}
	return out
}

// Register adds GET /sitemap.xml (and /sitemap-N.xml past MaxSitemapURLs),
// /robots.txt, /rss.xml and /atom.xml to e, and the feed's other names (301
// to /rss.xml). publicURL is the site's canonical origin (PUBLIC_URL). The
// sitemap and feeds follow the published content: rebuilt on the first
// request after it changed.
func Register(e interface {
	Match([]string, string, echo.HandlerFunc, ...echo.MiddlewareFunc) []*echo.Route
}, publicURL string, src Source) error {
	origin := strings.TrimRight(publicURL, "/")
	st := &site{origin: origin, src: src}
	// Built once now, so a start shows a sitemap or feed that cannot be
	// built; a database that does not answer yet (an edge started during a
	// blip) only delays them: each request builds them again until it can,
	// answering 503 meanwhile.
	if err := st.both(context.Background()); err != nil {
		slog.Warn("seo: the sitemap and feeds could not be built at start; they will be on a request", "err", err)
	}
	// Rebuilt within the refresh that found the published content changed,
	// not on the next request: a publish's answer (and every other edge's
	// reload) comes once the sitemap and feeds list the change, and no
	// crawler waits for a sitemap of 10,000 articles.
	if w, ok := src.(interface{ AfterRefresh(func()) }); ok {
		w.AfterRefresh(func() {
			if err := st.both(context.Background()); err != nil {
				slog.Warn("seo: rebuilding the sitemap and feeds", "err", err)
			}
		})
	}
	robots := []byte("User-agent: *\nDisallow: /api/\nDisallow: /staff\nDisallow: /preview/\n\nSitemap: " + origin + "/sitemap.xml\n")

	getHead := []string{http.MethodGet, http.MethodHead}
	answer := func(current func(context.Context) (*built, error), contentType string, pick func(b *built) *file) echo.HandlerFunc {
		return func(c echo.Context) error {
			b, err := current(c.Request().Context())
			if err != nil {
				c.Response().Header().Set("Retry-After", "5")
				return c.String(http.StatusServiceUnavailable, "The content cannot be read right now. Please try again.\n")
			}
			f := pick(b)
			if f == nil {
				return c.String(http.StatusNotFound, "Not found\n")
			}
			f.serve(c, contentType)
			return nil
		}
	}
	xmlType := "application/xml; charset=utf-8"
	e.Match(getHead, "/sitemap.xml", answer(st.currentSitemap, xmlType, func(b *built) *file { return b.sitemaps[0] }))
	// robots.txt is made of the code and PUBLIC_URL, no content: it has no
	// date of its own to give (its ETag revalidates it).
	robotsFile := newFile(robots, sitemapCacheControl, time.Time{})
	e.Match(getHead, "/robots.txt", func(c echo.Context) error {
		robotsFile.serve(c, "text/plain; charset=utf-8")
		return nil
	})
	for _, spec := range feedSpecs {
		route, rssPath := spec.route, spec.rss
		e.Match(getHead, spec.rss, answer(st.currentFeeds, "application/rss+xml; charset=utf-8", func(b *built) *file { return b.feeds[route].rss }))
		e.Match(getHead, spec.atom, answer(st.currentFeeds, "application/atom+xml; charset=utf-8", func(b *built) *file { return b.feeds[route].atom }))
		for _, alias := range spec.aliases {
			e.Match(getHead, alias, func(c echo.Context) error { return c.Redirect(http.StatusMovedPermanently, rssPath) })
		}
	}
	// The parts of a sitemap index: /sitemap-1.xml ...
	e.Match(getHead, "/sitemap-:part", func(c echo.Context) error {
		n, err := strconv.Atoi(strings.TrimSuffix(c.Param("part"), ".xml"))
		if err != nil || !strings.HasSuffix(c.Param("part"), ".xml") {
			return c.String(http.StatusNotFound, "Not found\n")
		}
		return answer(st.currentSitemap, xmlType, func(b *built) *file {
			if n < 1 || n >= len(b.sitemaps) {
				return nil
			}
			return b.sitemaps[n]
		})(c)
	})
	return nil
}

// buildSitemaps is the sitemap, or past MaxSitemapURLs an index ([0]) and
// its parts.
func buildSitemaps(origin string, pages []Page) ([][]byte, error) {
	if len(pages) <= MaxSitemapURLs {
		b, err := buildSitemap(origin, pages)
		return [][]byte{b}, err
	}
	type entry struct {
		Loc     string `xml:"loc"`
		LastMod string `xml:"lastmod"`
	}
	index := struct {
		XMLName  xml.Name `xml:"sitemapindex"`
		NS       string   `xml:"xmlns,attr"`
		Sitemaps []entry  `xml:"sitemap"`
	}{NS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	out := [][]byte{nil}
	for i := 0; i < len(pages); i += MaxSitemapURLs {
		part := pages[i:min(i+MaxSitemapURLs, len(pages))]
		b, err := buildSitemap(origin, part)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
		last := ""
		for _, p := range part {
			last = max(last, p.LastMod)
		}
		index.Sitemaps = append(index.Sitemaps, entry{Loc: fmt.Sprintf("%s/sitemap-%d.xml", origin, len(out)-1), LastMod: last})
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(index); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	out[0] = b.Bytes()
	return out, nil
}

// Sitemap image extension (Google): the pictures a page shows.
const imageNS = "http://www.google.com/schemas/sitemap-image/1.1"

// buildSitemap writes the urlset straight into one buffer: at 10,000
// articles encoding/xml's reflection was most of a sitemap's build.
func buildSitemap(origin string, pages []Page) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(200 + len(pages)*(len(origin)+100))
	b.WriteString(xml.Header)
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="` + imageNS + `">` + "\n")
	for _, p := range pages {
		b.WriteString("  <url>\n    <loc>")
		escapeTo(&b, origin)
		escapeTo(&b, p.Path)
		b.WriteString("</loc>\n    <lastmod>")
		escapeTo(&b, p.LastMod)
		b.WriteString("</lastmod>\n")
		for _, src := range p.Images {
			b.WriteString("    <image:image>\n      <image:loc>")
			escapeTo(&b, origin)
			escapeTo(&b, src)
			b.WriteString("</image:loc>\n    </image:image>\n")
		}
		b.WriteString("  </url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.Bytes(), nil
}

// escapeTo writes s to b as XML character data.
func escapeTo(b *bytes.Buffer, s string) {
	if !strings.ContainsAny(s, `&<>"'`+"\r\t\n") {
		b.WriteString(s)
		return
	}
	_ = xml.EscapeText(b, []byte(s))
}
