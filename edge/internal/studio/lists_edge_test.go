package studio_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/content"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
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
	var ids []float64
	for i := range n {
		fields := map[string]string{"title": fmt.Sprintf("Far edge %02d", i), "description": "d", "date": fmt.Sprintf("2031-01-%02d", i+1), "category": "Growth"}
		code, out := ed.do(http.MethodPost, "/api/v1/staff/content", map[string]any{"type": "blog", "slug": fmt.Sprintf("far-edge-%02d", i), "fields": fields, "body": "Text.\n"})
		if code != http.StatusCreated {
			t.Fatalf("create: %d %v", code, out)
		}
		id, rev := item(t, out)
		if code, out := ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/publish", int(id)), map[string]any{"revisionId": rev}); code != 200 {
			t.Fatalf("publish: %d %v", code, out)
		}
		ids = append(ids, id)
	}
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
