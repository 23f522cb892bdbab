package seo_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/content"
	"omnibus/edge/internal/content/contenttest"
	"omnibus/edge/internal/seo"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

func get(t *testing.T, e *echo.Echo, path string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: status %d", path, rec.Code)
	}
	return rec
}

// store is a content store seeded with the repository's files, on SQLite
// (the store's own tests run both engines).
func store(t *testing.T) *content.Store {
	t.Helper()
	s := content.New(storagetest.SQLite(t), content.Options{})
	if err := s.Seed(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

func newEcho(t *testing.T, publicURL string) *echo.Echo {
	t.Helper()
	e := echo.New()
	if err := seo.Register(e, publicURL, store(t)); err != nil {
		t.Fatal(err)
	}
	return e
}

// blogList is the published blog articles, newest first.
func blogList(t *testing.T) []content.Summary {
	t.Helper()
	list, err := store(t).Articles(context.Background(), content.TypeBlog)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

type sitemapDoc struct {
	URLs []struct {
		Loc     string `xml:"loc"`
		LastMod string `xml:"lastmod"`
		Images  []struct {
			Loc string `xml:"loc"`
		} `xml:"http://www.google.com/schemas/sitemap-image/1.1 image"`
	} `xml:"url"`
}

// The sitemap lists the public pages with absolute URLs on PUBLIC_URL and
// leaves out parameterised, visitor-specific, transactional and template
// demo routes.
func TestSitemap(t *testing.T) {
	rec := get(t, newEcho(t, "https://omnibus.example/"), "/sitemap.xml")
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/xml") {
		t.Fatalf("Content-Type %q", ct)
	}
	var doc sitemapDoc
	if err := xml.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var locs []string
	for _, u := range doc.URLs {
		locs = append(locs, u.Loc)
	}
	for _, want := range []string{"https://omnibus.example/", "https://omnibus.example/features", "https://omnibus.example/contact-us", "https://omnibus.example/privacy-policy", "https://omnibus.example/blog", "https://omnibus.example/help/category/article/success-story-kaveri-handlooms"} {
		if !slices.Contains(locs, want) {
			t.Errorf("sitemap lacks %s", want)
		}
	}
	for _, loc := range locs {
		for _, bad := range []string{":slug", "/login", "/register", "/sso-redirect", "/blocks", "/blog/posts-", "/blog/post", "/petpawlor-order-complete"} {
			if strings.Contains(loc, bad) {
				t.Errorf("sitemap has %s", loc)
			}
		}
	}
}

// Every URL says when its content last changed: a W3C date, not in the
// future; an article's is its front-matter updated: (else date:); the home page lists its
// hero picture.
func TestSitemapLastmodAndImages(t *testing.T) {
	var doc sitemapDoc
	if err := xml.Unmarshal(get(t, newEcho(t, "https://omnibus.example"), "/sitemap.xml").Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	articleDate := map[string]string{}
	for _, a := range blogList(t) {
		articleDate["https://omnibus.example/blog/article/"+a.Slug] = a.Modified()
	}
	tomorrow := time.Now().Add(24 * time.Hour)
	for _, u := range doc.URLs {
		day, err := time.Parse(time.DateOnly, u.LastMod)
		if err != nil {
			t.Errorf("%s: lastmod %q is not a W3C date", u.Loc, u.LastMod)
			continue
		}
		if day.After(tomorrow) {
			t.Errorf("%s: lastmod %s is in the future", u.Loc, u.LastMod)
		}
		if want, ok := articleDate[u.Loc]; ok && u.LastMod != want {
			t.Errorf("%s: lastmod %s, front matter says %s", u.Loc, u.LastMod, want)
		}
		if u.Loc == "https://omnibus.example/" {
			if len(u.Images) != 1 || !strings.HasPrefix(u.Images[0].Loc, "https://omnibus.example/images/") {
				t.Errorf("/ images: %+v", u.Images)
			}
		}
	}
	if len(articleDate) == 0 {
		t.Fatal("no blog articles")
	}
}

// Every page of the sitemap has a lastmod even when the build has not
// refreshed content-dates.json for a new content file: Pages fails loudly.
func TestPagesHaveDates(t *testing.T) {
	pages, err := seo.Pages(context.Background(), store(t))
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := seo.SitemapPaths()
	if len(pages) <= len(paths) {
		t.Fatalf("%d pages for %d route paths: the articles are missing", len(pages), len(paths))
	}
}

// A studio edit of a category's introduction is a change of its page and of
// the help centre that lists the categories: their lastmod is that day, not
// the repository's day of categories.json.
func TestAStudioEditOfACategoryMovesItsLastmod(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		s, cat := contenttest.CategoryEditedOn(t, db, time.Date(2031, 5, 6, 10, 0, 0, 0, time.UTC))
		pages, err := seo.Pages(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{"/help/category/" + cat.Slug: true, "/help-centre": true}
		for _, p := range pages {
			if want[p.Path] {
				delete(want, p.Path)
				if p.LastMod != "2031-05-06" {
					t.Errorf("%s after its category's introduction was edited: lastmod %s, want 2031-05-06", p.Path, p.LastMod)
				}
			}
		}
		if len(want) > 0 {
			t.Errorf("the sitemap has no %v", want)
		}
	})
}

// robots.txt keeps crawlers out of the API and points at the sitemap.
func TestRobots(t *testing.T) {
	body := get(t, newEcho(t, "https://omnibus.example"), "/robots.txt").Body.String()
	for _, want := range []string{"User-agent: *", "Disallow: /api/", "Sitemap: https://omnibus.example/sitemap.xml"} {
		if !strings.Contains(body, want) {
			t.Errorf("robots.txt lacks %q:\n%s", want, body)
		}
	}
}

// The blog's RSS 2.0 and Atom feeds carry every article, newest first, with
// absolute links on PUBLIC_URL, and are cached like the /blog page. Each has
// the elements its specification requires (RSS 2.0: the channel's title,
// link and description; RFC 4287: the feed's and each entry's id, title and
// updated, an author) and what the W3C feed validator asks for: the feed's
// own address (rel="self"), a guid per item that is its permalink, a pubDate.
func TestFeeds(t *testing.T) {
	e := newEcho(t, "https://omnibus.example/")
	want := blogList(t)
	articleURL := func(a content.Summary) string { return "https://omnibus.example/blog/article/" + a.Slug }
	day := func(d string) time.Time {
		v, err := time.Parse(time.DateOnly, d)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}

	rec := get(t, e, seo.RSSPath)
	if ct := rec.Header().Get("Content-Type"); ct != "application/rss+xml; charset=utf-8" {
		t.Errorf("RSS Content-Type %q", ct)
	}
	if cc := rec.Header().Get("Cache-Control"); !strings.Contains(cc, "max-age=300") {
		t.Errorf("RSS Cache-Control %q", cc)
	}
	var rss struct {
		Version string `xml:"version,attr"`
		Channel struct {
			// Before Link, which (with no namespace) would take atom:link too.
			Self []struct {
				Href string `xml:"href,attr"`
				Rel  string `xml:"rel,attr"`
				Type string `xml:"type,attr"`
			} `xml:"http://www.w3.org/2005/Atom link"`
			Title       string `xml:"title"`
			Link        string `xml:"link"`
			Description string `xml:"description"`
			Items       []struct {
				Title       string `xml:"title"`
				Link        string `xml:"link"`
				Description string `xml:"description"`
				GUID        struct {
					Value       string `xml:",chardata"`
					IsPermaLink string `xml:"isPermaLink,attr"`
				} `xml:"guid"`
				PubDate string `xml:"pubDate"`
			} `xml:"item"`
		} `xml:"channel"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &rss); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(rec.Body.String(), "managingEditor") {
		t.Error("RSS names a managingEditor, which must be an e-mail address the site has none of")
	}
	ch := rss.Channel
	if rss.Version != "2.0" || ch.Link != "https://omnibus.example/blog" || len(ch.Items) != len(want) {
		t.Fatalf("RSS: version %q link %q, %d items for %d articles", rss.Version, ch.Link, len(ch.Items), len(want))
	}
	if ch.Title == "" || ch.Description == "" {
		t.Errorf("RSS channel: title %q, description %q (both required)", ch.Title, ch.Description)
	}
	if len(ch.Self) != 1 || ch.Self[0].Href != "https://omnibus.example"+seo.RSSPath || ch.Self[0].Rel != "self" || ch.Self[0].Type != "application/rss+xml" {
		t.Errorf("RSS channel's atom:link rel=self: %+v", ch.Self)
	}
	for i, a := range want {
		it := ch.Items[i]
		if it.Title != a.Title || it.Link != articleURL(a) || it.Description != a.Description {
			t.Errorf("RSS item %d: %q %q, want %q", i, it.Title, it.Link, a.Title)
		}
		if it.GUID.Value != articleURL(a) || it.GUID.IsPermaLink != "true" {
			t.Errorf("RSS item %d guid %+v, want its permalink", i, it.GUID)
		}
		if pub, err := time.Parse(time.RFC1123Z, it.PubDate); err != nil || !pub.Equal(day(a.Date)) {
			t.Errorf("RSS item %d pubDate %q (%v), want the article's date %s", i, it.PubDate, err, a.Date)
		}
	}

	rec = get(t, e, seo.AtomPath)
	if ct := rec.Header().Get("Content-Type"); ct != "application/atom+xml; charset=utf-8" {
		t.Errorf("Atom Content-Type %q", ct)
	}
	type link struct {
		Href string `xml:"href,attr"`
		Rel  string `xml:"rel,attr"`
		Type string `xml:"type,attr"`
	}
	var atom struct {
		XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
		ID      string   `xml:"id"`
		Title   string   `xml:"title"`
		Updated string   `xml:"updated"`
		Author  struct {
			Name string `xml:"name"`
			URI  string `xml:"uri"`
		} `xml:"author"`
		Links   []link `xml:"link"`
		Entries []struct {
			ID        string `xml:"id"`
			Title     string `xml:"title"`
			Links     []link `xml:"link"`
			Updated   string `xml:"updated"`
			Published string `xml:"published"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &atom); err != nil {
		t.Fatal(err)
	}
	if atom.ID == "" || atom.Title == "" || atom.Author.Name != "Omnibus" || atom.Author.URI != "https://omnibus.example/about" {
		t.Errorf("Atom feed: id %q title %q author %+v", atom.ID, atom.Title, atom.Author)
	}
	newest := ""
	for _, a := range want {
		newest = max(newest, a.Modified())
	}
	if u, err := time.Parse(time.RFC3339, atom.Updated); err != nil || !u.Equal(day(newest)) {
		t.Errorf("Atom feed updated %q, want the newest article's change %s", atom.Updated, newest)
	}
	wantLinks := []link{{"https://omnibus.example/blog", "alternate", "text/html"}, {"https://omnibus.example" + seo.AtomPath, "self", "application/atom+xml"}}
	if !slices.Equal(atom.Links, wantLinks) {
		t.Errorf("Atom feed links %+v, want %+v", atom.Links, wantLinks)
	}
	if len(atom.Entries) != len(want) {
		t.Fatalf("Atom: %d entries for %d articles", len(atom.Entries), len(want))
	}
	for i, a := range want {
		en := atom.Entries[i]
		if en.ID != articleURL(a) || en.Title != a.Title || len(en.Links) != 1 || en.Links[0].Href != articleURL(a) || en.Links[0].Rel != "alternate" {
			t.Errorf("Atom entry %d: id %q title %q links %+v", i, en.ID, en.Title, en.Links)
		}
		if u, err := time.Parse(time.RFC3339, en.Updated); err != nil || !u.Equal(day(a.Modified())) {
			t.Errorf("Atom entry %d updated %q, want %s", i, en.Updated, a.Modified())
		}
		if p, err := time.Parse(time.RFC3339, en.Published); err != nil || !p.Equal(day(a.Date)) {
			t.Errorf("Atom entry %d published %q, want %s", i, en.Published, a.Date)
		}
	}

	// A reader polling with the ETag it has gets 304.
	req := httptest.NewRequest(http.MethodGet, seo.RSSPath, nil)
	req.Header.Set("If-None-Match", get(t, e, seo.RSSPath).Header().Get("ETag"))
	rec = httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("conditional GET: %d, want 304", rec.Code)
	}
}

// The feed's other names (/feed.xml, which a crawler review found a 404, and
// WordPress's /feed) are permanent redirects to the RSS feed.
func TestFeedAliasesRedirect(t *testing.T) {
	e := newEcho(t, "https://omnibus.example")
	for _, path := range []string{"/feed.xml", "/feed"} {
		for _, method := range []string{http.MethodGet, http.MethodHead} {
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
			if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != seo.RSSPath {
				t.Errorf("%s %s: %d Location %q, want 301 to %s", method, path, rec.Code, rec.Header().Get("Location"), seo.RSSPath)
			}
		}
	}
}

// Past the protocol's URLs per file the sitemap is an index of sitemaps,
// each part a sitemap of its own on PUBLIC_URL.
func TestASitemapPastItsLimitBecomesAnIndex(t *testing.T) {
	was := seo.MaxSitemapURLs
	seo.MaxSitemapURLs = 10
	t.Cleanup(func() { seo.MaxSitemapURLs = was })
	e := newEcho(t, "https://omnibus.example")
	body := get(t, e, "/sitemap.xml").Body.String()
	if !strings.Contains(body, "<sitemapindex") || !strings.Contains(body, "<loc>https://omnibus.example/sitemap-1.xml</loc>") {
		t.Fatalf("not an index of sitemaps:\n%.500s", body)
	}
	var doc sitemapDoc
	if err := xml.Unmarshal(get(t, e, "/sitemap-1.xml").Body.Bytes(), &doc); err != nil || len(doc.URLs) != 10 {
		t.Fatalf("the first part has %d URLs (%v), want 10", len(doc.URLs), err)
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/sitemap-99.xml", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("a part past the last: %d, want 404", rec.Code)
	}
}

// manyPosts is the store with n more blog posts, newest first.
type manyPosts struct {
	*content.Store
	n int
}

func (m manyPosts) Articles(ctx context.Context, typ string) ([]content.Summary, error) {
	list, err := m.Store.Articles(ctx, typ)
	if err != nil || typ != content.TypeBlog {
		return list, err
	}
	var more []content.Summary
	for i := range m.n {
		more = append(more, content.Summary{Slug: fmt.Sprintf("post-%d", i), Title: fmt.Sprintf("Post %d", i), Description: "A post.", Date: "2030-01-01", Category: "Growth"})
	}
	return append(more, list...), nil
}

func (m manyPosts) Newest(ctx context.Context, typ string, n int) ([]content.Article, error) {
	list, err := m.Store.Newest(ctx, typ, n)
	if err != nil || typ != content.TypeBlog {
		return list, err
	}
	var more []content.Article
	for i := range min(m.n, n) {
		more = append(more, content.Article{Summary: content.Summary{Slug: fmt.Sprintf("post-%d", i), Title: "A post", Date: "2030-01-01"}, HTML: "<p>A post.</p>"})
	}
	return append(more, list...)[:min(n, len(more)+len(list))], nil
}

// A feed reader polls the feeds: they carry the newest posts, not a
// blog's whole archive, while the sitemap still lists every post.
func TestFeedsCarryTheNewestPostsOnly(t *testing.T) {
	e := echo.New()
	if err := seo.Register(e, "https://omnibus.example", manyPosts{store(t), seo.MaxFeedItems + 10}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(get(t, e, "/rss.xml").Body.String(), "<item>"); n != seo.MaxFeedItems {
		t.Errorf("the RSS feed has %d items, want the newest %d", n, seo.MaxFeedItems)
	}
	if n := strings.Count(get(t, e, "/atom.xml").Body.String(), "<entry>"); n != seo.MaxFeedItems {
		t.Errorf("the Atom feed has %d entries, want the newest %d", n, seo.MaxFeedItems)
	}
	if body := get(t, e, "/sitemap.xml").Body.String(); !strings.Contains(body, "/blog/article/post-"+fmt.Sprint(seo.MaxFeedItems+9)+"<") {
		t.Error("the sitemap left out a post the feeds leave out")
	}
}

// Both feeds, the blog's and the help centre's, carry each whole article
// (the HTML its page shows, so a reader needs no visit), the site's
// language and an author; and like the sitemap they are dated by their
// content (Last-Modified: the newest article's change, the sitemap's newest
// lastmod), never by when the edge started. robots.txt has no content date,
// so it claims none.
func TestFeedsCarryWholeArticlesLanguageAuthorAndContentDates(t *testing.T) {
	s := store(t)
	e := echo.New()
	if err := seo.Register(e, "https://omnibus.example", s); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	httpDay := func(day string) string {
		d, err := time.Parse(time.DateOnly, day)
		if err != nil {
			t.Fatal(err)
		}
		return d.Format(http.TimeFormat)
	}
	for _, f := range []struct{ typ, rss, atom, page string }{
		{content.TypeBlog, seo.RSSPath, seo.AtomPath, "/blog"},
		{content.TypeHelp, seo.HelpRSSPath, seo.HelpAtomPath, "/help"},
	} {
		list, err := s.Articles(ctx, f.typ)
		if err != nil || len(list) == 0 {
			t.Fatalf("%s articles: %d, %v", f.typ, len(list), err)
		}
		newest := ""
		for _, a := range list {
			newest = max(newest, a.Modified())
		}
		first, _, err := s.Article(ctx, f.typ, list[0].Slug)
		if err != nil || first.HTML == "" {
			t.Fatalf("%s: %v", list[0].Slug, err)
		}

		rec := get(t, e, f.rss)
		var rss struct {
			Channel struct {
				Link     string `xml:"link"`
				Language string `xml:"language"`
				Items    []struct {
					Content string `xml:"http://purl.org/rss/1.0/modules/content/ encoded"`
					Creator string `xml:"http://purl.org/dc/elements/1.1/ creator"`
				} `xml:"item"`
			} `xml:"channel"`
		}
		if err := xml.Unmarshal(rec.Body.Bytes(), &rss); err != nil {
			t.Fatal(err)
		}
		ch := rss.Channel
		if ch.Link != "https://omnibus.example"+f.page || ch.Language != "en-us" || len(ch.Items) != len(list) {
			t.Fatalf("%s: link %q language %q, %d items for %d articles", f.rss, ch.Link, ch.Language, len(ch.Items), len(list))
		}
		if ch.Items[0].Content != first.HTML || ch.Items[0].Creator != "Omnibus" {
			t.Errorf("%s: the first item's content %.80q by %q, want the article's HTML by Omnibus", f.rss, ch.Items[0].Content, ch.Items[0].Creator)
		}
		if lm := rec.Header().Get("Last-Modified"); lm != httpDay(newest) {
			t.Errorf("%s: Last-Modified %q, want the newest article's %q", f.rss, lm, httpDay(newest))
		}

		rec = get(t, e, f.atom)
		var atom struct {
			Lang    string `xml:"http://www.w3.org/XML/1998/namespace lang,attr"`
			Author  string `xml:"author>name"`
			Entries []struct {
				Content struct {
					Type string `xml:"type,attr"`
					Text string `xml:",chardata"`
				} `xml:"content"`
			} `xml:"entry"`
		}
		if err := xml.Unmarshal(rec.Body.Bytes(), &atom); err != nil {
			t.Fatal(err)
		}
		if atom.Lang != "en-US" || atom.Author != "Omnibus" || len(atom.Entries) != len(list) {
			t.Fatalf("%s: lang %q author %q, %d entries for %d articles", f.atom, atom.Lang, atom.Author, len(atom.Entries), len(list))
		}
		if c := atom.Entries[0].Content; c.Type != "html" || c.Text != first.HTML {
			t.Errorf("%s: the first entry's content (%s) %.80q, want the article's HTML", f.atom, c.Type, c.Text)
		}
		if lm := rec.Header().Get("Last-Modified"); lm != httpDay(newest) {
			t.Errorf("%s: Last-Modified %q, want %q", f.atom, lm, httpDay(newest))
		}
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/help/feed.xml", nil))
	if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != seo.HelpRSSPath {
		t.Errorf("/help/feed.xml: %d %q, want 301 to %s", rec.Code, rec.Header().Get("Location"), seo.HelpRSSPath)
	}

	var doc sitemapDoc
	rec = get(t, e, "/sitemap.xml")
	if err := xml.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	newest := ""
	for _, u := range doc.URLs {
		newest = max(newest, u.LastMod)
	}
	if lm := rec.Header().Get("Last-Modified"); lm != httpDay(newest) {
		t.Errorf("sitemap Last-Modified %q, want its newest lastmod %q", lm, httpDay(newest))
	}
	if lm := get(t, e, "/robots.txt").Header().Get("Last-Modified"); lm != "" {
		t.Errorf("robots.txt Last-Modified %q: the edge's start, not a content date", lm)
	}
}

// A large site's sitemap is megabytes of XML (1.3 MB at 10,000 articles):
// a crawler that accepts compression gets it compressed, with its own
// ETag per coding, so a revalidation or a cache in between never mixes one
// coding's bytes with another's; a client that accepts none gets the XML.
func TestSitemapAndFeedsAreSentCompressedToThoseWhoAcceptIt(t *testing.T) {
	e := echo.New()
	if err := seo.Register(e, "https://omnibus.example", manyPosts{store(t), 2000}); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/sitemap.xml", seo.RSSPath, "/robots.txt"} {
		plain := get(t, e, path)
		etags := map[string]bool{plain.Header().Get("ETag"): true}
		for _, coding := range []string{"br", "gzip"} {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			req.Header.Set("Accept-Encoding", coding)
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			h := rec.Header()
			if rec.Code != http.StatusOK || h.Get("Content-Encoding") != coding || h.Get("Vary") != "Accept-Encoding" {
				t.Fatalf("%s asking %s: %d, Content-Encoding %q, Vary %q", path, coding, rec.Code, h.Get("Content-Encoding"), h.Get("Vary"))
			}
			decoded, err := decode(coding, rec.Body.Bytes())
			if err != nil || !bytes.Equal(decoded, plain.Body.Bytes()) {
				t.Fatalf("%s in %s does not decode to the document (%v)", path, coding, err)
			}
			if path == "/sitemap.xml" && rec.Body.Len()*5 > plain.Body.Len() {
				t.Errorf("the sitemap in %s is %d bytes of %d", coding, rec.Body.Len(), plain.Body.Len())
			}
			if etags[h.Get("ETag")] {
				t.Errorf("%s in %s has the ETag %s of another coding", path, coding, h.Get("ETag"))
			}
			etags[h.Get("ETag")] = true
			req.Header.Set("If-None-Match", h.Get("ETag"))
			rec = httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			if rec.Code != http.StatusNotModified {
				t.Errorf("%s in %s revalidated: %d, want 304", path, coding, rec.Code)
			}
		}
	}
}

func decode(coding string, b []byte) ([]byte, error) {
	if coding == "gzip" {
		r, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(r)
	}
	return io.ReadAll(brotli.NewReader(bytes.NewReader(b)))
}

// readCounter is a content store that counts how often the sitemap and the
// feeds read it: each read is a build of one of them.
type readCounter struct {
	*content.Store
	reads atomic.Int64
}

func (r *readCounter) Articles(ctx context.Context, typ string) ([]content.Summary, error) {
	r.reads.Add(1)
	return r.Store.Articles(ctx, typ)
}

func (r *readCounter) Newest(ctx context.Context, typ string, n int) ([]content.Article, error) {
	r.reads.Add(1)
	return r.Store.Newest(ctx, typ, n)
}

// A publish's answer waits for the refresh of the published set, and that
// refresh has rebuilt the sitemap and the feeds: the first crawler after a
// publish (of 10,000 articles, say) is served what is built, and never waits
// for a build on its request.
func TestARefreshRebuildsTheSitemapAndFeedsBeforeItReturns(t *testing.T) {
	ctx := context.Background()
	src := &readCounter{Store: store(t)}
	e := echo.New()
	if err := seo.Register(e, "https://omnibus.example", src); err != nil {
		t.Fatal(err)
	}
	items, _, err := src.List(ctx, content.Filter{Type: content.TypeBlog, State: content.StatePublished, Limit: 1})
	if err != nil || len(items) == 0 {
		t.Fatalf("a published blog article: %v %v", items, err)
	}
	it, err := src.Get(ctx, items[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	d := content.Draft{Slug: it.Revision.Slug, Fields: map[string]string{}, Body: it.Revision.Body}
	for k, v := range it.Revision.Fields {
		d.Fields[k] = v
	}
	d.Fields["title"] = "Retitled in the studio"
	if it, err = src.Save(ctx, it.ID, it.Revision.ID, contenttest.Editor, d); err != nil {
		t.Fatal(err)
	}
	if _, err = src.Publish(ctx, it.ID, it.Revision.ID, contenttest.Editor); err != nil {
		t.Fatal(err)
	}
	if err := src.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	built := src.reads.Load()
	for _, coding := range []string{"gzip", "br", ""} {
		for _, path := range []string{seo.RSSPath, "/sitemap.xml"} {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			req.Header.Set("Accept-Encoding", coding)
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			body := rec.Body.Bytes()
			if coding != "" {
				if body, err = decode(coding, body); err != nil {
					t.Fatalf("%s in %s: %v", path, coding, err)
				}
			}
			want := "Retitled in the studio"
			if path == "/sitemap.xml" {
				want = "/blog/article/" + it.Revision.Slug + "</loc>"
			}
			if rec.Code != http.StatusOK || !bytes.Contains(body, []byte(want)) {
				t.Fatalf("%s in %q after the publish: %d without %q", path, coding, rec.Code, want)
			}
		}
	}
	if n := src.reads.Load() - built; n != 0 {
		t.Errorf("the first requests after the publish's refresh read the content %d times: they built what the refresh should have", n)
	}
}
