package studio_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"omnibus/edge/internal/content"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/ogcard"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/renderer"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
	"omnibus/shared"
)

// cardRenderer stands in for the renderer's two parts the cards touch: the
// card drawing (a 1200×630 JPEG of the words it is sent, answered only to
// the edge's own request, as ssr/app/lib/og-card.server.ts) and an article
// page naming its card as og:image (the content header's card, else the
// generic card). drawn counts the drawings; hold, when set, keeps a
// drawing waiting until it is closed; fail makes drawings fail.
type cardRenderer struct {
	URL   string
	drawn atomic.Int32
	mu    sync.Mutex
	words []content.CardText
	hold  chan struct{}
	fail  atomic.Bool
}

func newCardRenderer(t *testing.T) *cardRenderer {
	cr := &cardRenderer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == renderer.HealthPath:
			return
		case r.URL.Path == ogcard.RendererPath:
			var words content.CardText
			b, _ := base64.RawURLEncoding.DecodeString(r.Header.Get(shared.HTTP.CardHeader))
			if r.Header.Get("X-Forwarded-For") != "" || json.Unmarshal(b, &words) != nil {
				http.NotFound(w, r)
				return
			}
			cr.mu.Lock()
			hold := cr.hold
			cr.words = append(cr.words, words)
			cr.mu.Unlock()
			if hold != nil {
				<-hold
			}
			cr.drawn.Add(1)
			if cr.fail.Load() {
				http.Error(w, `{"errorDetail":"broken"}`, http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "image/jpeg")
			jpeg.Encode(w, image.NewRGBA(image.Rect(0, 0, ogcard.Width, ogcard.Height)), nil)
			return
		}
		var pc content.PageContent
		if b, err := base64.RawURLEncoding.DecodeString(r.Header.Get(content.ContentHeader)); err == nil {
			json.Unmarshal(b, &pc)
		}
		if pc.Article == nil {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		img := "/og-image.jpg"
		if pc.Card != "" {
			img = pc.Card
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!DOCTYPE html><html><title>%s</title><meta property=\"og:image\" content=\"http://edge.test%s\"><h1>%s</h1></html>", pc.Article.Title, img, pc.Article.Title)
	}))
	t.Cleanup(srv.Close)
	cr.URL = srv.URL
	return cr
}

var ogImage = regexp.MustCompile(`property="og:image" content="http://edge.test([^"]+)"`)

// ogImageOf is the path of the page's og:image.
func ogImageOf(t *testing.T, e *edgetest.Edge, path string) string {
	t.Helper()
	img, res, body := pageImage(t, e, path)
	if img == "" {
		t.Fatalf("%s answered %d without an og:image: %.300s", path, res.StatusCode, body)
	}
	return img
}

// pageImage is the path of the page's og:image, "" when it answers none
// (an edge that has not yet heard of a new article answers 404).
func pageImage(t *testing.T, e *edgetest.Edge, path string) (string, *http.Response, string) {
	t.Helper()
	res, body := page(t, e, path)
	if m := ogImage.FindStringSubmatch(body); res.StatusCode == http.StatusOK && m != nil {
		return m[1], res, body
	}
	return "", res, body
}

// publishArticle creates (id 0) or edits and publishes a blog article titled title.
func publishArticle(t *testing.T, ed client, id, rev float64, title string) (float64, float64) {
	t.Helper()
	fields := map[string]string{"title": title, "description": "What the card says under the title.", "date": "2026-11-27", "category": "Growth"}
	var code int
	var out map[string]any
	if id == 0 {
		code, out = ed.do(http.MethodPost, "/api/v1/staff/content", map[string]any{"type": "blog", "slug": "card-follows", "fields": fields, "body": "Text.\n"})
	} else {
		code, out = ed.do(http.MethodPut, fmt.Sprintf("/api/v1/staff/content/%d", int(id)), map[string]any{"baseRevisionId": rev, "slug": "card-follows", "fields": fields, "body": "Text.\n"})
	}
	if code != http.StatusCreated && code != http.StatusOK {
		t.Fatalf("save %q: %d %v", title, code, out)
	}
	id, rev = item(t, out)
	if code, out := ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/publish", int(id)), map[string]any{"revisionId": rev}); code != http.StatusOK {
		t.Fatalf("publish %q: %d %v", title, code, out)
	}
	return id, rev
}

// A published article's preview image follows its title: the publish has
// the renderer draw the card of the new words (once per words, however
// many edges and visitors ask), the database keeps it, and every edge's
// page names it and serves it as an immutable 1200×630 JPEG. On
// PostgreSQL a second edge, which took no publish, shows and serves it.
func TestARetitledArticlesPreviewImageFollowsItsTitleOnEveryEdge(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		cr := newCardRenderer(t)
		edges := []*edgetest.Edge{edgetest.Start(t, edgetest.Options{DB: db, RendererURL: cr.URL})}
		if db.Postgres {
			edges = append(edges, edgetest.Start(t, edgetest.Options{DB: db, RendererURL: cr.URL}))
		}
		ed := client{t, edges[0].URL, stafftest.SignIn(t, db, "publisher@example.com", staff.Publisher)}
		const path = "/blog/article/card-follows"

		id, rev := publishArticle(t, ed, 0, 0, "The first title")
		first := ogImageOf(t, edges[0], path)
		if !regexp.MustCompile(`^/media/og/[0-9a-f]{32}\.jpg$`).MatchString(first) {
			t.Fatalf("the new article's page names %q, not the card drawn for its title (drawn %d)", first, cr.drawn.Load())
		}
		publishArticle(t, ed, id, rev, "The second title")
		for i, e := range edges {
			var now string
			poll.Until(t, 10*time.Second, func() bool { now, _, _ = pageImage(t, e, path); return now != "" && now != first }, "edge %d: the retitled article's page still names its first card %s", i, first)
			res, err := http.Get(e.URL + now)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			cfg, err := jpeg.DecodeConfig(bytes.NewReader(body))
			if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/jpeg" || err != nil || cfg.Width != 1200 || cfg.Height != 630 {
				t.Fatalf("edge %d: %s answered %d %q, %d×%d (%v)", i, now, res.StatusCode, res.Header.Get("Content-Type"), cfg.Width, cfg.Height, err)
			}
			if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
				t.Errorf("edge %d: the card's Cache-Control is %q: its address names its words, so it never changes", i, cc)
			}
		}
		// Visitors on every edge only looked the cards up: one drawing per title.
		for _, e := range edges {
			if got := ogImageOf(t, e, path); got == first {
				t.Errorf("a later visit named the first card again")
			}
		}
		if n := cr.drawn.Load(); n != 2 {
			t.Errorf("%d drawings for two titles; want one each", n)
		}
		cr.mu.Lock()
		defer cr.mu.Unlock()
		if last := cr.words[len(cr.words)-1]; last.Title != "The second title" || last.Section != "Blog" {
			t.Errorf("the card was drawn for %+v", last)
		}
	})
}

// A drawing that fails or takes long never holds a publish: the page goes
// live with the card it can name (the site's generic one), and a slow
// drawing, once done, puts its card on the page.
func TestAPublishDoesNotWaitLongForItsCard(t *testing.T) {
	db := storagetest.SQLite(t)
	cr := newCardRenderer(t)
	e := edgetest.Start(t, edgetest.Options{DB: db, RendererURL: cr.URL})
	ed := client{t, e.URL, stafftest.SignIn(t, db, "publisher@example.com", staff.Publisher)}
	const path = "/blog/article/card-follows"

	cr.fail.Store(true)
	id, rev := publishArticle(t, ed, 0, 0, "A card that fails")
	if got := ogImageOf(t, e, path); got != "/og-image.jpg" {
		t.Fatalf("with its drawing failed, the page names %q, not the generic card", got)
	}

	cr.fail.Store(false)
	hold := make(chan struct{})
	cr.mu.Lock()
	cr.hold = hold
	cr.mu.Unlock()
	publishArticle(t, ed, id, rev, "A card that takes long") // answers while the drawing is held
	if got := ogImageOf(t, e, path); got != "/og-image.jpg" {
		t.Fatalf("before its card is drawn, the page names %q", got)
	}
	close(hold)
	poll.Until(t, 10*time.Second, func() bool { return ogImageOf(t, e, path) != "/og-image.jpg" }, "the late card never reached the page")
}

var metaOgImage = regexp.MustCompile(`<meta property="og:image" content="https?://[^/"]+(/[^"]*)"`)

// With the real renderer: the card the publish has drawn is the
// renderer's own drawing (ssr/app/lib/og-card.server.ts), named on the
// article's page and answered by the edge as a 1200×630 JPEG; retitled, the
// page names another card.
func TestTheRendererDrawsAPublishedArticlesCard(t *testing.T) {
	db := storagetest.SQLite(t)
	e := edgetest.Start(t, edgetest.Options{DB: db, RealRenderer: true})
	ed := client{t, e.URL, stafftest.SignIn(t, db, "publisher@example.com", staff.Publisher)}
	const path = "/blog/article/card-follows"
	imageOf := func() string {
		t.Helper()
		res, body := page(t, e, path)
		m := metaOgImage.FindStringSubmatch(body)
		if res.StatusCode != http.StatusOK || m == nil {
			t.Fatalf("%s answered %d without an og:image", path, res.StatusCode)
		}
		return m[1]
	}
	id, rev := publishArticle(t, ed, 0, 0, "Drawn by the renderer")
	var first string
	// The first drawing loads satori and sharp, and may take past the publish's wait.
	poll.Until(t, 60*time.Second, func() bool { first = imageOf(); return strings.HasPrefix(first, ogcard.PathPrefix) }, "the page never named its drawn card")
	publishArticle(t, ed, id, rev, "Redrawn by the renderer")
	var now string
	poll.Until(t, 60*time.Second, func() bool { now = imageOf(); return now != first && strings.HasPrefix(now, ogcard.PathPrefix) }, "the retitled page never named a new card")
	res, err := http.Get(e.URL + now)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	cfg, err := jpeg.DecodeConfig(res.Body)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/jpeg" || err != nil || cfg.Width != 1200 || cfg.Height != 630 {
		t.Fatalf("%s answered %d %q, %d×%d (%v)", now, res.StatusCode, res.Header.Get("Content-Type"), cfg.Width, cfg.Height, err)
	}
}
