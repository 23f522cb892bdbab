package studio_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// Site search finds what the studio publishes and stops finding what it
// unpublishes, on the edge that made the change and (PostgreSQL) on another
// edge of the same database, which hears of it only as the page purge: a
// visitor never searches their way to a page that is gone, nor misses a new
// article.
func TestSiteSearchFollowsThePublishedArticles(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		ru := contentRenderer(t)
		edges := []*edgetest.Edge{edgetest.Start(t, edgetest.Options{DB: db, RendererURL: ru})}
		if db.Postgres {
			edges = append(edges, edgetest.Start(t, edgetest.Options{DB: db, RendererURL: ru}))
		}
		const word = "quokkaberry"
		const url = "/blog/article/quokka-week"
		// found is whether the edge's search for word lists url; a refused
		// (rate-limited) search is asked again.
		found := func(e *edgetest.Edge) (bool, bool) {
			code, out := client{t: t, base: e.URL}.do(http.MethodGet, "/api/v1/search?q="+word, nil)
			if code == http.StatusTooManyRequests {
				return false, false
			}
			if code != http.StatusOK {
				t.Fatalf("search: %d %v", code, out)
			}
			results, _ := out["data"].(map[string]any)["results"].([]any)
			for _, r := range results {
				if r.(map[string]any)["url"] == url {
					return true, true
				}
			}
			return false, true
		}
		everywhere := func(want bool, what string) {
			for i, e := range edges {
				poll.Until(t, 20*time.Second, func() bool {
					got, answered := found(e)
					return answered && got == want
				}, "edge %d: %s", i, what)
			}
		}

		ed := client{t, edges[0].URL, stafftest.SignIn(t, db, "publisher@example.com", staff.Publisher)}
		draft := map[string]any{"type": "blog", "slug": "quokka-week", "fields": map[string]string{"title": "Quokka week", "description": "Offers all week", "date": "2026-11-27", "category": "Growth"}, "body": "Every order ships with a " + word + " sticker.\n"}
		code, out := ed.do(http.MethodPost, "/api/v1/staff/content", draft)
		if code != http.StatusCreated {
			t.Fatalf("create: %d %v", code, out)
		}
		id, rev := item(t, out)
		everywhere(false, "a draft is found by site search")

		if code, out = ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/publish", int(id)), map[string]any{"revisionId": rev}); code != 200 {
			t.Fatalf("publish: %d %v", code, out)
		}
		everywhere(true, "the published article is never found by site search")

		if code, out = ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/unpublish", int(id)), nil); code != 200 {
			t.Fatalf("unpublish: %d %v", code, out)
		}
		everywhere(false, "the unpublished article is still found by site search")
	})
}
