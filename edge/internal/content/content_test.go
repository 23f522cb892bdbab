package content_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"omnibus/edge/internal/content"
	"omnibus/edge/internal/server"
	"omnibus/edge/internal/storage/storagetest"
	"omnibus/shared"
)

// newServer serves the spec's article endpoints from a store seeded with
// the repository's files, on SQLite (the store's own tests run both engines).
func newServer(t *testing.T) *server.Server {
	t.Helper()
	srv := server.New(server.Options{})
	content.Register(srv.API, seeded(t, storagetest.SQLite(t)))
	return srv
}

func get(srv *server.Server, path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec
}

func TestHelpArticleBySlug(t *testing.T) {
	srv := newServer(t)
	rec := get(srv, "/api/v1/help/slug/success-story-kaveri-handlooms")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d, body %s", rec.Code, rec.Body)
	}
	var b struct {
		Data content.Article `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil {
		t.Fatal(err)
	}
	a := b.Data
	if a.Slug != "success-story-kaveri-handlooms" || a.Category != "success-stories" || a.Date != "2026-08-30" ||
		!strings.HasPrefix(a.Title, "How Kaveri Handlooms went from one shop") || a.Description == "" {
		t.Fatalf("front matter %+v", a.Summary)
	}
	if strings.Contains(a.Body, "slug:") || !strings.Contains(a.Body, "## The problem: three stock counts") {
		t.Fatalf("body should be the Markdown after the front matter, got %.200q", a.Body)
	}
}

func TestUnknownSlugIs404(t *testing.T) {
	srv := newServer(t)
	for _, p := range []string{
		"/api/v1/help/slug/no-such-article",
		"/api/v1/omnibus-blog/slug/no-such-article",
		// A help slug is not a blog slug and the other way round.
		"/api/v1/omnibus-blog/slug/create-your-store",
		"/api/v1/help/slug/festive-season-checklist",
	} {
		rec := get(srv, p)
		if rec.Code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, rec.Code)
			continue
		}
		var b struct{ ErrorDetail string }
		if json.Unmarshal(rec.Body.Bytes(), &b); b.ErrorDetail != "Article not found" {
			t.Errorf("%s: body %s", p, rec.Body)
		}
	}
}

func TestUnknownProductIs404(t *testing.T) {
	srv := newServer(t)
	for _, p := range []string{"/api/v1/acme-blog/list", "/api/v1/acme-blog/slug/festive-season-checklist"} {
		rec := get(srv, p)
		if rec.Code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, rec.Code)
			continue
		}
		var b struct{ ErrorDetail string }
		if json.Unmarshal(rec.Body.Bytes(), &b); b.ErrorDetail == "" {
			t.Errorf("%s: body %s has no errorDetail", p, rec.Body)
		}
	}
}

func TestBlogListNewestFirstWithoutBodies(t *testing.T) {
	srv := newServer(t)
	rec := get(srv, "/api/v1/omnibus-blog/list")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d", rec.Code)
	}
	var b struct {
		Data []map[string]string `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil {
		t.Fatal(err)
	}
	if len(b.Data) < 3 {
		t.Fatalf("%d articles, want at least 3", len(b.Data))
	}
	for i, a := range b.Data {
		if _, has := a["body"]; has {
			t.Errorf("list item %s carries its body", a["slug"])
		}
		if i > 0 && a["date"] > b.Data[i-1]["date"] {
			t.Errorf("%s (%s) listed after an older article", a["slug"], a["date"])
		}
	}
	rec = get(srv, "/api/v1/omnibus-blog/slug/"+b.Data[0]["slug"])
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"body":`) {
		t.Fatalf("first listed article: status %d", rec.Code)
	}
}

func TestParseRejectsBrokenFrontMatter(t *testing.T) {
	good := "---\nslug: a-b\ntitle: \"T: with colon\"\ndescription: D\ndate: 2026-01-02\ncategory: c\n---\nBody\n"
	a, err := content.Parse([]byte(good))
	if err != nil || a.Title != "T: with colon" || a.Body != "Body\n" {
		t.Fatalf("good article: %+v, %v", a, err)
	}
	for name, src := range map[string]string{
		"no front matter": "# Title\n",
		"unclosed":        "---\nslug: a\n",
		"no title":        strings.Replace(good, "title: \"T: with colon\"\n", "", 1),
		"bad slug":        strings.Replace(good, "slug: a-b", "slug: A B", 1),
		"bad date":        strings.Replace(good, "2026-01-02", "2 Jan 2026", 1),
		"not key value":   strings.Replace(good, "category: c", "category", 1),
	} {
		if _, err := content.Parse([]byte(src)); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}

// shared/front-matter-cases.json, which the renderer's
// parser (ssr/app/lib/front-matter.ts) runs too: the same article, or a
// refusal saying the same thing, from both sides.
func TestSharedFrontMatterCases(t *testing.T) {
	var table struct {
		Cases []struct {
			Name, Source string
			Article      *struct{ Slug, Title, Description, Date, Updated, Category, Body string }
			Error        string
		}
	}
	if err := json.Unmarshal(shared.FrontMatterCasesJSON, &table); err != nil || len(table.Cases) == 0 {
		t.Fatalf("front-matter-cases.json: %v", err)
	}
	for _, c := range table.Cases {
		a, err := content.Parse([]byte(c.Source))
		switch {
		case c.Article == nil && (err == nil || !strings.Contains(err.Error(), c.Error)):
			t.Errorf("%s: %v, want an error saying %q", c.Name, err, c.Error)
		case c.Article != nil && err != nil:
			t.Errorf("%s: %v", c.Name, err)
		case c.Article != nil:
			got := struct{ Slug, Title, Description, Date, Updated, Category, Body string }{a.Slug, a.Title, a.Description, a.Date, a.Updated, a.Category, a.Body}
			if got != *c.Article {
				t.Errorf("%s: %+v, want %+v", c.Name, got, *c.Article)
			}
		}
	}
}

// An article's last change is its updated: day when the front matter has
// one, else the day it was published: what the sitemap's lastmod and the
// feeds' updated say.
func TestModified(t *testing.T) {
	revised, err := content.Parse([]byte("---\nslug: a\ntitle: T\ndescription: D\ndate: 2026-01-02\nupdated: 2026-03-04\ncategory: c\n---\nBody\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := revised.Modified(); got != "2026-03-04" {
		t.Errorf("revised article: Modified %q, want its updated day", got)
	}
	if got := (content.Summary{Date: "2026-01-02"}).Modified(); got != "2026-01-02" {
		t.Errorf("never revised: Modified %q, want its date", got)
	}
}

// A list page of a large blog is sent its newest MaxListed articles and
// told there are more, rather than every article encoded and then halved
// until the header fits.
func TestAListPageIsSentItsNewestArticlesOnly(t *testing.T) {
	pc := &content.PageContent{}
	for i := range content.MaxListed + 100 {
		pc.Articles = append(pc.Articles, content.Summary{Slug: fmt.Sprintf("post-%d", i), Title: "A post"})
	}
	if _, err := pc.Encode(); err != nil {
		t.Fatal(err)
	}
	if len(pc.Articles) != content.MaxListed || !pc.More || pc.Articles[0].Slug != "post-0" {
		t.Fatalf("sent %d articles (more: %v), want the first %d and more", len(pc.Articles), pc.More, content.MaxListed)
	}
}
