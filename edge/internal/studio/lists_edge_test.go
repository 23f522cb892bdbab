package studio_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"omnibus/edge/internal/content"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/renderer"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage/storagetest"
)

// Two edges of one PostgreSQL: articles published on the first reach the
// second's blog pages (the newest on /blog, the older on ?page=2), its
// feed and its sitemap; one unpublished there leaves every one of them on
// the second edge too. The second edge learns each change from the purge
// alone, and reads only what changed.
func TestListsFeedsAndSitemapFollowAChangeMadeOnAnotherEdge(t *testing.T) {
	db := storagetest.Postgres(t)
	ru := contentRenderer(t)
	edges := []*edgetest.Edge{edgetest.Start(t, edgetest.Options{DB: db, RendererURL: ru}), edgetest.Start(t, edgetest.Options{DB: db, RendererURL: ru})}
	ed := client{t, edges[0].URL, stafftest.SignIn(t, db, "publisher@example.com", staff.Publisher)}
	other := edges[1]
	// Enough new posts, newer than every seeded one, to fill /blog's first
	// page and push the first of them to the second.
	n := content.BlogPageSize + 1
	ids := publishPosts(t, ed, "Far edge", "2031-01", n)
	shows := func(path, want string) bool {
		res, body := page(t, other, path)
		return res.StatusCode == 200 && strings.Contains(body, want)
	}
	oldest, newest := "Far edge 00", fmt.Sprintf("Far edge %02d", n-1)
	poll.Until(t, 10*time.Second, func() bool { return shows("/blog", newest) }, "the other edge's /blog never showed the newest post")
	if shows("/blog", oldest+"<") {
		t.Errorf("the other edge's /blog shows %q, the %d-th newest: its first page should hold %d", oldest, n, content.BlogPageSize)
	}
	if !shows("/blog?page=2", oldest) {
		t.Errorf("the other edge's /blog?page=2 does not show the oldest new post")
	}
	if !shows("/rss.xml", newest) || !shows("/sitemap.xml", "/blog/article/far-edge-00<") {
		t.Error("the other edge's feed or sitemap lacks the new posts")
	}

	// Unpublished on the first edge: gone from every list of the second.
	if code, out := ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/unpublish", int(ids[n-1])), nil); code != 200 {
		t.Fatalf("unpublish: %d %v", code, out)
	}
	poll.Until(t, 10*time.Second, func() bool { return !shows("/blog", newest) }, "the other edge's /blog still shows the unpublished post")
	for _, path := range []string{"/blog?page=2", "/rss.xml", "/atom.xml", "/sitemap.xml"} {
		if shows(path, newest) || shows(path, "far-edge-"+fmt.Sprint(n-1)+"<") {
			t.Errorf("the other edge's %s still carries the unpublished post", path)
		}
	}
	if res, _ := page(t, other, "/blog/article/far-edge-"+fmt.Sprint(n-1)); res.StatusCode != http.StatusGone {
		t.Errorf("the unpublished post's page on the other edge: %d, want 410", res.StatusCode)
	}
}

// A crawler (or an attacker) walking ?page=2, 3, … 9999 of every list gets
// the site's not-found page for each page past the last, and the edge
// renders that page once for them all: past the last page is no page, so
// it is neither a render nor a cache entry of its own. A page a new
// article creates is a page again at once.
func TestPagesPastAListsLastShareTheNotFoundPage(t *testing.T) {
	var mu sync.Mutex
	rendered := map[string]int{}
	target, _ := url.Parse(contentRenderer(t))
	proxy := httputil.NewSingleHostReverseProxy(target)
	counting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != renderer.HealthPath {
			mu.Lock()
			rendered[r.URL.RequestURI()]++
			mu.Unlock()
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(counting.Close)
	db := storagetest.SQLite(t)
	e := edgetest.Start(t, edgetest.Options{DB: db, RendererURL: counting.URL})
	renders := func() (n int) {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range rendered {
			n += c
		}
		return n
	}
	// The warmer renders the site's pages once it starts: count from after.
	poll.Until(t, 20*time.Second, func() bool {
		res, _ := page(t, e, "/blog")
		return res.Header.Get("X-Cache") == "HIT"
	}, "/blog never became a cache hit")
	before := renders()

	const asked = 200
	for i := 2; i < 2+asked; i++ {
		for _, p := range []string{"/blog", "/blog.data", "/help/category/getting-started"} {
			res, _ := page(t, e, fmt.Sprintf("%s?page=%d", p, i))
			if res.StatusCode != http.StatusNotFound {
				t.Fatalf("%s?page=%d of a one-page list: %d, want 404", p, i, res.StatusCode)
			}
		}
	}
	if extra := renders() - before; extra > 3 {
		mu.Lock()
		t.Logf("rendered: %v", rendered)
		mu.Unlock()
		t.Errorf("%d renders for %d pages past the last: want the one shared not-found page (and its data request)", extra, 3*asked)
	}

	// Enough new posts to fill a second page: ?page=2 is a page now.
	ed := client{t, e.URL, stafftest.SignIn(t, db, "publisher@example.com", staff.Publisher)}
	publishPosts(t, ed, "Second page", "2031-02", content.BlogPageSize)
	if res, body := page(t, e, "/blog?page=2"); res.StatusCode != http.StatusOK || !strings.Contains(body, "<li>") {
		t.Errorf("/blog?page=2 once the blog has two pages: %d, want its page", res.StatusCode)
	}
	if res, _ := page(t, e, "/blog?page=3"); res.StatusCode != http.StatusNotFound {
		t.Errorf("/blog?page=3 of a two-page blog: %d, want 404", res.StatusCode)
	}
}

// publishPosts has ed create and publish n blog posts titled "<title> 00",
// "<title> 01", ... (slugs alike), dated month-01, month-02, ..., and
// answers their ids.
func publishPosts(t *testing.T, ed client, title, month string, n int) []float64 {
	t.Helper()
	var ids []float64
	slug := strings.ReplaceAll(strings.ToLower(title), " ", "-")
	for i := range n {
		fields := map[string]string{"title": fmt.Sprintf("%s %02d", title, i), "description": "d", "date": fmt.Sprintf("%s-%02d", month, i+1), "category": "Growth"}
		code, out := ed.do(http.MethodPost, "/api/v1/staff/content", map[string]any{"type": "blog", "slug": fmt.Sprintf("%s-%02d", slug, i), "fields": fields, "body": "Text.\n"})
		if code != http.StatusCreated {
			t.Fatalf("create: %d %v", code, out)
		}
		id, rev := item(t, out)
		if code, out := ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/publish", int(id)), map[string]any{"revisionId": rev}); code != 200 {
			t.Fatalf("publish: %d %v", code, out)
		}
		ids = append(ids, id)
	}
	return ids
}
