package content_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"omnibus/edge/internal/content"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// publishPosts creates and publishes n blog posts dated day, titled
// "<prefix> NN", and returns their ids.
func publishPosts(t *testing.T, s *content.Store, prefix, day string, n int) []uint64 {
	t.Helper()
	ctx := context.Background()
	var ids []uint64
	for i := range n {
		d := content.Draft{Slug: fmt.Sprintf("%s-%02d", prefix, i), Body: "Text.\n",
			Fields: map[string]string{"title": fmt.Sprintf("%s %02d", prefix, i), "description": "d", "date": day, "category": "Growth"}}
		it, err := s.Create(ctx, content.TypeBlog, "e@example.com", d)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Publish(ctx, it.ID, it.Revision.ID, "e@example.com"); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, it.ID)
	}
	return ids
}

// The blog shows a page of BlogPageSize articles, newest first, and its
// older articles on ?page=2, 3...: every article on exactly one page, in
// the list's order, and a page past the last empty. A blog of 10,000
// articles is no longer sent whole (cut to what its header holds) to every
// visitor of /blog.
func TestTheBlogIsReadPageByPage(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		s := seeded(t, db)
		publishPosts(t, s, "paged", "2031-01-01", content.BlogPageSize+3)
		if err := s.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		all, err := s.Articles(ctx, content.TypeBlog)
		if err != nil {
			t.Fatal(err)
		}
		var seen []content.Summary
		pages := 0
		for n := 1; ; n++ {
			pc, err := s.PageContentAt(ctx, "/blog", n)
			if err != nil || pc == nil {
				t.Fatalf("page %d: %v", n, err)
			}
			if n == 1 {
				pages = pc.Pages
				if want := (len(all) + content.BlogPageSize - 1) / content.BlogPageSize; pages != want || len(pc.Articles) != content.BlogPageSize {
					t.Fatalf("page 1 of %d has %d articles; want %d pages of %d", pages, len(pc.Articles), want, content.BlogPageSize)
				}
			}
			if n > pages {
				if len(pc.Articles) != 0 {
					t.Errorf("page %d past the last %d shows %d articles", n, pages, len(pc.Articles))
				}
				break
			}
			if pc.Page != n || pc.Pages != pages {
				t.Errorf("page %d says it is page %d of %d, want of %d", n, pc.Page, pc.Pages, pages)
			}
			seen = append(seen, pc.Articles...)
		}
		if !reflect.DeepEqual(seen, all) {
			t.Fatalf("the pages list %d articles, the blog has %d: not each once in order", len(seen), len(all))
		}
	})
}

// The page data handler serves the page ?page= asks for: the renderer is
// sent that page's articles.
func TestThePageDataHandlerSendsThePageAskedFor(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		s := seeded(t, db)
		publishPosts(t, s, "asked", "2031-02-01", content.BlogPageSize+1)
		if err := s.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		want, err := s.PageContentAt(ctx, "/blog", 2)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		h := s.PageData(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = r.Header.Get(content.ContentHeader) }))
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/blog?page=2", nil))
		if v, err := want.Encode(); err != nil || got != v || want.Page != 2 {
			t.Fatalf("/blog?page=2 was sent another page than page 2 (%v)", err)
		}
	})
}

// Another edge's store learns a change at its next Refresh (the purge
// tells it), reading only what changed: its lists, categories, policies,
// pages and redirects are then exactly what a store that read everything
// afresh has, after a new revision, a new article, an unpublished one and
// a renamed help category.
func TestAStoreThatReadsOnlyWhatChangedMatchesOneThatReadsEverything(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		here := seeded(t, db)
		there := content.New(db, content.Options{}) // another edge of the same database
		if err := there.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		ids := publishPosts(t, here, "moving", "2031-03-01", 3)
		// A new revision of the first, the second unpublished.
		it, err := here.Get(ctx, ids[0])
		if err != nil {
			t.Fatal(err)
		}
		d := content.Draft{Slug: it.Revision.Slug, Body: "New text.\n", Fields: map[string]string{"title": "Moved on", "description": "d", "date": "2031-03-02", "category": "Growth"}}
		if it, err = here.Save(ctx, ids[0], it.Revision.ID, "e@example.com", d); err != nil {
			t.Fatal(err)
		}
		if _, err := here.Publish(ctx, ids[0], it.Revision.ID, "e@example.com"); err != nil {
			t.Fatal(err)
		}
		if _, err := here.Unpublish(ctx, ids[1]); err != nil {
			t.Fatal(err)
		}
		cats, err := there.Categories(ctx)
		if err != nil || len(cats) == 0 {
			t.Fatalf("categories: %v", err)
		}
		cat := find(t, here, content.TypeHelpCategory, cats[0].Slug)
		f := map[string]string{}
		for k, v := range cat.Revision.Fields {
			f[k] = v
		}
		f["title"] = "Renamed topic"
		if cat, err = here.Save(ctx, cat.ID, cat.Revision.ID, "e@example.com", content.Draft{Slug: cat.Slug, Fields: f}); err != nil {
			t.Fatal(err)
		}
		if _, err := here.Publish(ctx, cat.ID, cat.Revision.ID, "e@example.com"); err != nil {
			t.Fatal(err)
		}
		before := there.Version()
		if err := there.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if there.Version() == before {
			t.Fatal("the Refresh after changes kept the version: nothing built from the content would be rebuilt")
		}
		fresh := content.New(db, content.Options{})
		if err := fresh.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		for _, typ := range []string{content.TypeBlog, content.TypeHelp} {
			a, _ := there.Articles(ctx, typ)
			b, _ := fresh.Articles(ctx, typ)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s: the other edge lists %d articles, a fresh read %d, or in another order or text", typ, len(a), len(b))
			}
		}
		a, _ := there.Categories(ctx)
		b, _ := fresh.Categories(ctx)
		if !reflect.DeepEqual(a, b) || a[0].Title != "Renamed topic" {
			t.Errorf("categories differ from a fresh read: %v vs %v", a, b)
		}
		help, _ := there.CategoryArticles(ctx, cats[0].Slug)
		for _, h := range help {
			if h.CategoryTitle != "Renamed topic" {
				t.Errorf("help article %s still shows its category as %q", h.Slug, h.CategoryTitle)
			}
		}
		if !reflect.DeepEqual(there.PagePaths(), fresh.PagePaths()) {
			t.Error("the page paths differ from a fresh read")
		}
		blog, _ := there.Articles(ctx, content.TypeBlog)
		if blog[0].Title != "Moved on" {
			t.Errorf("the newest post is %q, want the new revision's title", blog[0].Title)
		}
		for _, sm := range blog {
			if sm.Slug == "moving-01" {
				t.Error("the unpublished post is still listed on the other edge")
			}
		}
		if !there.IsGone("/blog/article/moving-01") || there.IsPage("/blog/article/moving-01") {
			t.Error("the unpublished post's page is not gone on the other edge")
		}
		// Nothing changed since: a Refresh keeps the version (nothing is rebuilt).
		v := there.Version()
		if err := there.Refresh(ctx); err != nil || there.Version() != v {
			t.Errorf("a Refresh without a change moved the version from %d to %d (%v)", v, there.Version(), err)
		}
	})
}
