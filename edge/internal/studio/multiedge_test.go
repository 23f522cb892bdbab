package studio_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// Three edges on one PostgreSQL database, each warming its cache: once a
// publish on one has answered, the very first visitor on every edge gets
// the new text as a cache hit (the publish waits for each edge to reload
// its content pages and warm them again), and an edit published later
// replaces it everywhere just as fast. No visitor waits for a render.
func TestAPublishIsACacheHitOnEveryEdge(t *testing.T) {
	db := storagetest.Postgres(t)
	ru := contentRenderer(t)
	// The publish waits for every edge's warm-up as long as it takes: the
	// three edges share two cores with the rest of the suite, and past
	// PUBLISH_WAIT's 3 s the answer comes before the warm-up it is about.
	warm := func(c *config.Config) { c.CacheWarm, c.PublishWait = true, time.Minute }
	var edges []*edgetest.Edge
	for i := 0; i < 3; i++ {
		edges = append(edges, edgetest.Start(t, edgetest.Options{DB: db, RendererURL: ru, Config: warm}))
	}
	for i, e := range edges {
		poll.Until(t, 60*time.Second, func() bool { return e.App.Cache.WarmUps() > 0 }, "edge %d never finished its first warm-up", i)
	}
	ed := client{t, edges[0].URL, stafftest.SignIn(t, db, "publisher@example.com", staff.Publisher)}
	draft := map[string]any{"type": "blog", "slug": "three-edges", "fields": map[string]string{"title": "Everywhere at once", "description": "d", "date": "2026-11-27", "category": "Growth"}, "body": "First text.\n"}
	code, out := ed.do(http.MethodPost, "/api/v1/staff/content", draft)
	if code != http.StatusCreated {
		t.Fatalf("create: %d %v", code, out)
	}
	id, rev := item(t, out)
	publish := func(rev float64) {
		if code, out := ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/publish", int(id)), map[string]any{"revisionId": rev}); code != 200 {
			t.Fatalf("publish: %d %v", code, out)
		}
	}
	hitEverywhere := func(want string) {
		for i, e := range edges {
			// The other edges kept the earlier page as a hit for its fresh
			// minutes: only the acknowledged purge makes them serve the new
			// text, and only its warm-up makes it a hit on the first visit.
			res, body := page(t, e, "/blog/article/three-edges")
			if res.StatusCode != 200 || res.Header.Get("X-Cache") != "HIT" || !strings.Contains(body, want) {
				t.Fatalf("edge %d, first visit after the publish answered: %d, X-Cache %q, new text shown: %v", i, res.StatusCode, res.Header.Get("X-Cache"), strings.Contains(body, want))
			}
		}
	}
	publish(rev)
	hitEverywhere("First text.")

	d := map[string]any{"baseRevisionId": rev, "slug": "three-edges", "fields": draft["fields"], "body": "Second text.\n"}
	code, out = ed.do(http.MethodPut, fmt.Sprintf("/api/v1/staff/content/%d", int(id)), d)
	if code != 200 {
		t.Fatalf("save: %d %v", code, out)
	}
	_, rev = item(t, out)
	publish(rev)
	hitEverywhere("Second text.")
}

// A short link is content too: once a marketer publishes one in the studio
// it answers /go/<name> with its redirect on every edge (no deploy), and
// once unpublished it is gone everywhere. On PostgreSQL a second edge shows
// the change reached the edges that did not take the publish.
func TestACampaignLinkPublishedInTheStudioAnswersOnEveryEdge(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		ru := contentRenderer(t)
		edges := []*edgetest.Edge{edgetest.Start(t, edgetest.Options{DB: db, RendererURL: ru})}
		if db.Postgres {
			edges = append(edges, edgetest.Start(t, edgetest.Options{DB: db, RendererURL: ru}))
		}
		ed := client{t, edges[0].URL, stafftest.SignIn(t, db, "publisher@example.com", staff.Publisher)}
		answers := func(want int) {
			t.Helper()
			for i, e := range edges {
				poll.Until(t, 10*time.Second, func() bool {
					res, _ := page(t, e, "/go/spring-offers")
					return res.StatusCode == want && (want != http.StatusFound || res.Header.Get("Location") == "/contact-us")
				}, "edge %d: /go/spring-offers never answered %d", i, want)
			}
		}
		answers(http.StatusNotFound)
		code, out := ed.do(http.MethodPost, "/api/v1/staff/content", map[string]any{"type": "campaign-link", "slug": "spring-offers",
			"fields": map[string]string{"target": "/contact-us", "utmSource": "newsletter", "utmMedium": "email", "utmCampaign": "spring"}})
		if code != http.StatusCreated {
			t.Fatalf("create: %d %v", code, out)
		}
		id, rev := item(t, out)
		if code, out := ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/publish", int(id)), map[string]any{"revisionId": rev}); code != 200 {
			t.Fatalf("publish: %d %v", code, out)
		}
		answers(http.StatusFound)
		if code, out := ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/unpublish", int(id)), nil); code != 200 {
			t.Fatalf("unpublish: %d %v", code, out)
		}
		answers(http.StatusNotFound)
	})
}
