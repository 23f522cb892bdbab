package studio_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"omnibus/edge/internal/security"
	"regexp"
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
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// contentRenderer stands in for the renderer: it draws what the edge's
// content header carries (the article's title and HTML, a preview banner)
// and, like the real one, answers 404 for a path of no route and for an
// article page without an article.
func contentRenderer(t testing.TB) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == renderer.HealthPath { // the edge warms its cache once its renderer is up
			return
		}
		var pc content.PageContent
		if v := r.Header.Get(content.ContentHeader); v != "" {
			b, err := base64.RawURLEncoding.DecodeString(v)
			if err != nil || json.Unmarshal(b, &pc) != nil {
				http.Error(w, "bad content header", 500)
				return
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		known := content.IsRoutePage(r.URL.Path) || strings.HasPrefix(r.URL.Path, "/blog/article/") || strings.HasPrefix(r.URL.Path, "/help/category/")
		if !known || strings.HasPrefix(r.URL.Path, "/blog/article/") && pc.Article == nil {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, "<!DOCTYPE html><html><title>Page not found</title><h1>Page not found</h1></html>")
			return
		}
		banner := ""
		if pc.Preview != nil {
			banner = "<p role=status>Preview: not published</p>"
		}
		title := "Page " + r.URL.Path
		html := ""
		if pc.Article != nil {
			title, html = pc.Article.Title, pc.Article.HTML
		}
		var list []string
		for _, a := range pc.Articles {
			list = append(list, a.Title)
		}
		// The renderer writes the nonce it was given on its inline styles and scripts.
		nonce := r.Header.Get(security.NonceHeader)
		fmt.Fprintf(w, "<!DOCTYPE html><html><title>%s</title><style nonce=\"%s\"></style>%s<h1>%s</h1>%s<ul><li>%s</ul></html>", title, nonce, banner, title, html, strings.Join(list, "<li>"))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

type client struct {
	t      testing.TB
	base   string
	cookie *http.Cookie
}

func (c client) do(method, path string, body any) (int, map[string]any) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Origin", c.base)
	if c.cookie != nil {
		req.AddCookie(c.cookie)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

func item(t testing.TB, out map[string]any) (id, rev float64) {
	t.Helper()
	d, _ := out["data"].(map[string]any)
	if d == nil {
		t.Fatalf("no item in %v", out)
	}
	r := d["revision"].(map[string]any)
	return d["id"].(float64), r["id"].(float64)
}

func noRedirect() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func page(t testing.TB, e *edgetest.Edge, path string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.URL+path, nil)
	req.Header.Set("User-Agent", edgetest.ChromeUA)
	res, err := noRedirect().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// A marketer's whole day, through the edge as visitors and the studio reach
// it: a draft is not live, its preview link shows it with the banner and is
// never cached or indexed, publishing puts it on its page, the blog and the
// sitemap, a stale save is refused without losing either text, a rename
// keeps the old address as a 301, unpublishing answers 410, a rollback
// makes a new revision.
func TestPublishingThroughTheEdge(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e := edgetest.Start(t, edgetest.Options{DB: db, RendererURL: contentRenderer(t)})
		anon := client{t: t, base: e.URL}
		if code, out := anon.do(http.MethodGet, "/api/v1/staff/content", nil); code != http.StatusUnauthorized || out["errorDetail"] == nil {
			t.Fatalf("without a studio session: %d %v, want 401", code, out)
		}
		viewer := client{t, e.URL, stafftest.SignIn(t, db, "viewer@example.com", staff.Viewer)}
		if code, _ := viewer.do(http.MethodPost, "/api/v1/staff/content", map[string]any{"type": "blog"}); code != http.StatusForbidden {
			t.Fatalf("a viewer's create: %d, want 403", code)
		}
		ed := client{t, e.URL, stafftest.SignIn(t, db, "editor@example.com", staff.Publisher)}

		// Refused fields are named.
		code, out := ed.do(http.MethodPost, "/api/v1/staff/content", map[string]any{"type": "blog", "slug": "festive-season-checklist", "fields": map[string]string{"title": " ", "description": "d", "date": "2026-13-01", "category": "Growth"}, "body": "x"})
		fe, _ := out["fieldErrors"].(map[string]any)
		if code != http.StatusUnprocessableEntity || fe["slug"] == nil || fe["title"] == nil || fe["date"] == nil {
			t.Fatalf("a bad draft: %d %v, want 422 naming slug, title and date", code, out)
		}

		draft := map[string]any{"type": "blog", "slug": "spring-sale", "fields": map[string]string{"title": "Spring sale", "description": "Ten days of offers", "date": "2026-11-27", "category": "Growth"}, "body": "## Offers\n\nEvery **day**.\n<script>alert(1)</script>\n"}
		code, out = ed.do(http.MethodPost, "/api/v1/staff/content", draft)
		if code != http.StatusCreated {
			t.Fatalf("create: %d %v", code, out)
		}
		id, rev := item(t, out)
		if res, _ := page(t, e, "/blog/article/spring-sale"); res.StatusCode != http.StatusNotFound {
			t.Fatalf("a draft's page answers %d, want 404 until it is published: %v", res.StatusCode, res.Header)
		}

		// The preview link: no account needed, the banner, never stored, noindex.
		code, out = ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/previews", int(id)), nil)
		if code != http.StatusCreated {
			t.Fatalf("preview: %d %v", code, out)
		}
		link := out["data"].(map[string]any)["url"].(string)
		for i := 0; i < 2; i++ {
			res, body := page(t, e, link)
			if res.StatusCode != 200 || !strings.Contains(body, "Preview: not published") || !strings.Contains(body, "<h1>Spring sale</h1>") {
				t.Fatalf("the preview link: %d %s", res.StatusCode, body)
			}
			if strings.Contains(body, "<script>") {
				t.Fatalf("the draft's script reached the page: %s", body)
			}
			// The page's own inline styles are allowed: the answer's CSP names the nonce the renderer wrote.
			if m := regexp.MustCompile(`<style nonce="([^"]+)">`).FindStringSubmatch(body); m == nil || !strings.Contains(res.Header.Get("Content-Security-Policy"), "'nonce-"+m[1]+"'") {
				t.Fatalf("the preview's CSP %q does not allow the nonce its page was rendered with (%v): it would show unstyled", res.Header.Get("Content-Security-Policy"), m)
			}
			if res.Header.Get("Cache-Control") != "no-store" || !strings.Contains(res.Header.Get("X-Robots-Tag"), "noindex") || res.Header.Get("X-Cache") == "HIT" {
				t.Fatalf("the preview's headers: %v", res.Header)
			}
		}
		wrong := link[:len(link)-1] + map[bool]string{true: "B", false: "A"}[strings.HasSuffix(link, "A")]
		if res, _ := page(t, e, wrong); res.StatusCode != http.StatusNotFound {
			t.Errorf("a wrong preview token: %d, want 404", res.StatusCode)
		}

		// Publish: the article, the blog and the sitemap have it, the page is then served from the cache.
		if code, out = ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/publish", int(id)), map[string]any{"revisionId": rev}); code != 200 {
			t.Fatalf("publish: %d %v", code, out)
		}
		res, body := page(t, e, "/blog/article/spring-sale")
		if res.StatusCode != 200 || !strings.Contains(body, "<h2 id=\"offers\">Offers</h2>") || strings.Contains(body, "Preview") {
			t.Fatalf("the published article: %d %s", res.StatusCode, body)
		}
		poll.Until(t, 10*time.Second, func() bool {
			res, _ := page(t, e, "/blog/article/spring-sale")
			return res.Header.Get("X-Cache") == "HIT"
		}, "the published article is never served from the cache")
		if _, body := page(t, e, "/blog"); !strings.Contains(body, "Spring sale") {
			t.Errorf("/blog lacks the published article: %s", body)
		}
		if _, body := page(t, e, "/sitemap.xml"); !strings.Contains(body, "/blog/article/spring-sale</loc>") {
			t.Errorf("the sitemap lacks the published article")
		}
		if _, body := page(t, e, "/rss.xml"); !strings.Contains(body, "Spring sale") {
			t.Errorf("the feed lacks the published article")
		}

		// Two editors saving from the same revision: one 409 carrying the other's text.
		save := func(text string) (int, map[string]any) {
			d := map[string]any{"baseRevisionId": rev, "slug": "spring-sale", "fields": draft["fields"], "body": text}
			return ed.do(http.MethodPut, fmt.Sprintf("/api/v1/staff/content/%d", int(id)), d)
		}
		var wg sync.WaitGroup
		codes := make([]int, 2)
		outs := make([]map[string]any, 2)
		for i, text := range []string{"Alice's words.\n", "Bob's words.\n"} {
			wg.Add(1)
			go func() { defer wg.Done(); codes[i], outs[i] = save(text) }()
		}
		wg.Wait()
		if codes[0]+codes[1] != 200+409 {
			t.Fatalf("two saves from one revision: %v, want one 200 and one 409", codes)
		}
		winner, loser := 0, 1
		if codes[0] == 409 {
			winner, loser = 1, 0
		}
		cur := outs[loser]["current"].(map[string]any)["revision"].(map[string]any)["body"]
		won := outs[winner]["data"].(map[string]any)["revision"].(map[string]any)["body"]
		if cur != won {
			t.Errorf("the refused editor is shown %q, not the saved text %q", cur, won)
		}
		_, rev = item(t, outs[winner])

		// Rename and publish: the old address is a 301 to the new one.
		d := map[string]any{"baseRevisionId": rev, "slug": "spring-offers", "fields": draft["fields"], "body": "Renamed.\n"}
		code, out = ed.do(http.MethodPut, fmt.Sprintf("/api/v1/staff/content/%d", int(id)), d)
		if code != 200 {
			t.Fatalf("rename: %d %v", code, out)
		}
		_, rev = item(t, out)
		if code, out = ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/publish", int(id)), map[string]any{"revisionId": rev}); code != 200 {
			t.Fatalf("publish the rename: %d %v", code, out)
		}
		res, _ = page(t, e, "/blog/article/spring-sale?utm_source=x")
		if res.StatusCode != http.StatusMovedPermanently || !strings.HasPrefix(res.Header.Get("Location"), "/blog/article/spring-offers") {
			t.Fatalf("the old address: %d %s, want 301 to the new one", res.StatusCode, res.Header.Get("Location"))
		}

		// Unpublish: 410, and out of the sitemap.
		if code, out = ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/unpublish", int(id)), nil); code != 200 {
			t.Fatalf("unpublish: %d %v", code, out)
		}
		if res, _ := page(t, e, "/blog/article/spring-offers"); res.StatusCode != http.StatusGone {
			t.Errorf("an unpublished article answers %d, want 410", res.StatusCode)
		}
		if _, body := page(t, e, "/sitemap.xml"); strings.Contains(body, "spring-offers") {
			t.Errorf("the sitemap still lists the unpublished article")
		}

		// Roll back to the first revision: a new revision with its text.
		code, out = ed.do(http.MethodGet, fmt.Sprintf("/api/v1/staff/content/%d/revisions", int(id)), nil)
		revs, _ := out["data"].([]any)
		if code != 200 || len(revs) < 3 {
			t.Fatalf("revisions: %d %v", code, out)
		}
		first := revs[len(revs)-1].(map[string]any)["id"].(float64)
		code, out = ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/rollback", int(id)), map[string]any{"revisionId": first, "baseRevisionId": rev})
		if code != 200 || !strings.Contains(out["data"].(map[string]any)["revision"].(map[string]any)["body"].(string), "Every **day**.") {
			t.Fatalf("rollback: %d %v", code, out)
		}
		code, out = ed.do(http.MethodGet, fmt.Sprintf("/api/v1/staff/content/%d/diff?from=%d&to=%d", int(id), int(first), int(rev)), nil)
		if code != 200 || len(out["data"].(map[string]any)["body"].([]any)) == 0 {
			t.Errorf("diff: %d %v", code, out)
		}
	})
}
