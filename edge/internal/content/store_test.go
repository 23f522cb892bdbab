package content_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"omnibus/edge/internal/content"
	"omnibus/edge/internal/content/contenttest"
	pollpkg "omnibus/edge/internal/poll"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// seeded is a store on db with the repository's files imported.
func seeded(t *testing.T, db *storage.DB) *content.Store {
	t.Helper()
	s := content.New(db, content.Options{})
	if err := s.Seed(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

func find(t *testing.T, s *content.Store, typ, slug string) content.Item {
	t.Helper()
	items, _, err := s.List(context.Background(), content.Filter{Type: typ, Limit: 200})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if it.Slug == slug {
			full, err := s.Get(context.Background(), it.ID)
			if err != nil {
				t.Fatal(err)
			}
			return full
		}
	}
	t.Fatalf("no %s %q in the store", typ, slug)
	return content.Item{}
}

func blogDraft(slug, title, body string) content.Draft {
	return content.Draft{Slug: slug, Body: body, Fields: map[string]string{"title": title, "description": "About " + title, "date": "2026-11-20", "category": "Growth"}}
}

func TestTheRepositoryFilesAreImportedOnceAsPublishedFirstRevisions(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		s := seeded(t, db)
		want := map[string]int{content.TypeBlog: 3, content.TypeHelp: 7, content.TypeHelpCategory: 5, content.TypePolicy: 4, content.TypeCampaignLink: 4, content.TypeRedirect: 1}
		for typ, n := range want {
			items, _, err := s.List(ctx, content.Filter{Type: typ, Limit: 200})
			if err != nil {
				t.Fatal(err)
			}
			if len(items) < n {
				t.Errorf("%s: %d items imported, want at least %d", typ, len(items), n)
			}
			for _, it := range items {
				if it.State != content.StatePublished || it.Revision.Author != content.RepositoryAuthor || it.Revision.Number != 1 || it.Changed {
					t.Errorf("%s %s: state %s, author %s, revision %d, changed %v; want published revision 1 by repository", typ, it.Slug, it.State, it.Revision.Author, it.Revision.Number, it.Changed)
				}
			}
		}
		a := find(t, s, content.TypeBlog, "festive-season-checklist")
		if !strings.Contains(a.Revision.HTML, "<h2 id=") || a.Revision.Fields["title"] == "" {
			t.Errorf("the article's HTML has no heading ids or its fields are missing: %+v", a.Revision.Fields)
		}
		// A second start imports nothing again.
		if err := s.Seed(ctx); err != nil {
			t.Fatal(err)
		}
		revs, err := s.Revisions(ctx, a.ID)
		if err != nil || len(revs) != 1 {
			t.Fatalf("after a second start the article has %d revisions (%v), want 1", len(revs), err)
		}
	})
}

func TestTwoSavesFromTheSameRevisionGiveOneConflictAndLoseNoText(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		s := seeded(t, db)
		a := find(t, s, content.TypeBlog, "goal-based-advertising")
		base := a.Revision.ID
		texts := []string{"Alice's text.\n", "Bob's text.\n"}
		var wg sync.WaitGroup
		results := make([]error, 2)
		saved := make([]content.Item, 2)
		for i := range texts {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				d := content.Draft{Slug: a.Slug, Fields: a.Revision.Fields, Body: texts[i]}
				saved[i], results[i] = s.Save(ctx, a.ID, base, []string{"alice@example.com", "bob@example.com"}[i], d)
			}(i)
		}
		wg.Wait()
		var conflicts, ok int
		var winner string
		var conflict *content.ConflictError
		for i, err := range results {
			switch {
			case err == nil:
				ok++
				winner = texts[i]
			case errors.As(err, &conflict):
				conflicts++
			default:
				t.Fatalf("save %d: %v", i, err)
			}
		}
		if ok != 1 || conflicts != 1 {
			t.Fatalf("%d saves went through and %d were refused as stale; want one of each", ok, conflicts)
		}
		if conflict.Current.Revision.Body != winner {
			t.Errorf("the refused editor is shown %q, not the text that won (%q)", conflict.Current.Revision.Body, winner)
		}
		now, err := s.Get(ctx, a.ID)
		if err != nil || now.Revision.Body != winner || now.Revision.Number != 2 {
			t.Errorf("the item's latest revision is %d %q (%v), want 2 with the winner's text", now.Revision.Number, now.Revision.Body, err)
		}
		// Saving never publishes: the live revision is still the first.
		if now.PublishedRevisionID == nil || *now.PublishedRevisionID != base || !now.Changed {
			t.Errorf("a save changed what is live: published %v, changed %v", now.PublishedRevisionID, now.Changed)
		}
	})
}

func TestRefusedFieldsAreNamed(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		s := seeded(t, db)
		cases := []struct {
			name  string
			typ   string
			draft content.Draft
			field string
		}{
			{"a slug another article has", content.TypeBlog, blogDraft("festive-season-checklist", "Title", "Body"), "slug"},
			{"an empty title", content.TypeBlog, blogDraft("new-post", " ", "Body"), "title"},
			{"a date that is no day", content.TypeBlog, func() content.Draft { d := blogDraft("new-post", "T", "B"); d.Fields["date"] = "2026-02-30"; return d }(), "date"},
			{"an unknown help category", content.TypeHelp, func() content.Draft { d := blogDraft("new-help", "T", "B"); d.Fields["category"] = "nope"; return d }(), "category"},
			{"an empty body", content.TypeBlog, blogDraft("new-post", "T", " "), "body"},
			{"a slug with capitals", content.TypeBlog, blogDraft("New-Post", "T", "B"), "slug"},
			{"a redirect hiding a page", content.TypeRedirect, content.Draft{Slug: "/about", Fields: map[string]string{"target": "/blog", "status": "301"}}, "slug"},
			{"a redirect hiding a page in another letter case (redirects match any case)", content.TypeRedirect, content.Draft{Slug: "/About/", Fields: map[string]string{"target": "/blog", "status": "301"}}, "slug"},
			{"a redirect to itself", content.TypeRedirect, content.Draft{Slug: "/old", Fields: map[string]string{"target": "/old", "status": "301"}}, "target"},
			{"a redirect to a redirect (a chain)", content.TypeRedirect, content.Draft{Slug: "/old", Fields: map[string]string{"target": "/pricing", "status": "301"}}, "target"},
			{"a redirect to no page", content.TypeRedirect, content.Draft{Slug: "/old", Fields: map[string]string{"target": "/nowhere", "status": "301"}}, "target"},
			{"a redirect leading to a redirect's source (a chain)", content.TypeRedirect, content.Draft{Slug: "/old-pricing", Fields: map[string]string{"target": "/about", "status": "301"}}, "slug"},
			{"a redirect status that is not 301, 302 or 410", content.TypeRedirect, content.Draft{Slug: "/old", Fields: map[string]string{"target": "/about", "status": "307"}}, "status"},
			{"a campaign link to no page", content.TypeCampaignLink, content.Draft{Slug: "spring", Fields: map[string]string{"target": "/nowhere", "utmCampaign": "spring"}}, "target"},
		}
		for _, c := range cases {
			_, err := s.Create(ctx, c.typ, "editor@example.com", c.draft)
			var fe content.FieldErrors
			if !errors.As(err, &fe) || fe[c.field] == "" {
				t.Errorf("%s: got %v, want the field %q refused", c.name, err, c.field)
			}
		}
		// A good redirect and link are taken.
		if _, err := s.Create(ctx, content.TypeRedirect, "e@example.com", content.Draft{Slug: "/old", Fields: map[string]string{"target": "/blog/article/festive-season-checklist", "status": "302"}}); err != nil {
			t.Errorf("a redirect to a published article: %v", err)
		}
		if _, err := s.Create(ctx, content.TypeRedirect, "e@example.com", content.Draft{Slug: "/gone-page", Fields: map[string]string{"status": "410"}}); err != nil {
			t.Errorf("a 410 without a target: %v", err)
		}
	})
}

func TestPublishRenameUnpublishAndRollBack(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		s := seeded(t, db)
		var changes []content.Change
		s.Subscribe(func(_ context.Context, ch content.Change) { changes = append(changes, ch) })

		it, err := s.Create(ctx, content.TypeBlog, "editor@example.com", blogDraft("first-look", "First look", "Hello **world**.\n"))
		if err != nil {
			t.Fatal(err)
		}
		if it.State != content.StateDraft || it.PublishedRevisionID != nil {
			t.Fatalf("a new item is %s, want a draft", it.State)
		}
		it, err = s.Publish(ctx, it.ID, it.Revision.ID, "editor@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if it.State != content.StatePublished || it.Changed {
			t.Fatalf("after publishing: %s, changed %v", it.State, it.Changed)
		}
		last := changes[len(changes)-1]
		if !last.Live || !contains(last.Paths, "/blog/article/first-look") || !contains(last.Paths, "/blog") || !contains(last.Paths, "/sitemap.xml") || !contains(last.Paths, "/rss.xml") {
			t.Errorf("the publish announced %+v: want the article, the blog, the feeds and the sitemap", last)
		}

		// Rename and publish: the old address becomes a 301 to the new one.
		d := blogDraft("a-first-look", "A first look", "Hello again.\n")
		it, err = s.Save(ctx, it.ID, it.Revision.ID, "editor@example.com", d)
		if err != nil {
			t.Fatal(err)
		}
		if it.Slug != "first-look" {
			t.Errorf("a save renamed the live page to %q before it was published", it.Slug)
		}
		it, err = s.Publish(ctx, it.ID, it.Revision.ID, "editor@example.com")
		if err != nil {
			t.Fatal(err)
		}
		rd := find(t, s, content.TypeRedirect, "/blog/article/first-look")
		if rd.State != content.StatePublished || rd.Revision.Fields["target"] != "/blog/article/a-first-look" || rd.Revision.Fields["status"] != "301" {
			t.Errorf("the old address: %s %+v, want a published 301 to the new one", rd.State, rd.Revision.Fields)
		}
		// Renamed again: the first redirect leads straight to the newest address (no chain).
		it, _ = s.Save(ctx, it.ID, it.Revision.ID, "editor@example.com", blogDraft("third-name", "Third", "Again.\n"))
		if it, err = s.Publish(ctx, it.ID, it.Revision.ID, "editor@example.com"); err != nil {
			t.Fatal(err)
		}
		if rd := find(t, s, content.TypeRedirect, "/blog/article/first-look"); rd.Revision.Fields["target"] != "/blog/article/third-name" {
			t.Errorf("the first address leads to %s, want the newest address", rd.Revision.Fields["target"])
		}

		// Unpublish.
		it, err = s.Unpublish(ctx, it.ID)
		if err != nil || it.State != content.StateUnpublished || it.PublishedRevisionID != nil {
			t.Fatalf("unpublish: %v %+v", err, it)
		}
		if last := changes[len(changes)-1]; !last.Live || last.State != content.StateUnpublished || !contains(last.Paths, "/blog/article/third-name") {
			t.Errorf("the unpublish announced %+v", last)
		}

		// Roll back to revision 1: a new revision with its text, nothing published.
		revs, err := s.Revisions(ctx, it.ID)
		if err != nil {
			t.Fatal(err)
		}
		first := revs[len(revs)-1]
		it, err = s.Rollback(ctx, it.ID, first.ID, it.Revision.ID, "editor@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if it.Revision.Number != len(revs)+1 || it.Revision.Body != "Hello **world**.\n" || it.Revision.Slug != "first-look" || it.State != content.StateUnpublished {
			t.Errorf("after the rollback: revision %d %q slug %s state %s", it.Revision.Number, it.Revision.Body, it.Revision.Slug, it.State)
		}
		// Publishing it again at its first address takes that address back
		// from the redirect (no loop).
		if it, err = s.Publish(ctx, it.ID, it.Revision.ID, "editor@example.com"); err != nil {
			t.Fatal(err)
		}
		if rd := find(t, s, content.TypeRedirect, "/blog/article/first-look"); rd.State == content.StatePublished {
			t.Errorf("the redirect from the article's address is still live: %+v", rd.Revision.Fields)
		}
	})
}

func TestSchedulePreviewAndRevoke(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		clock := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
		var mu sync.Mutex
		now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
		s := content.New(db, content.Options{Now: now})
		if err := s.Seed(ctx); err != nil {
			t.Fatal(err)
		}
		it, err := s.Create(ctx, content.TypeBlog, "e@example.com", blogDraft("monday", "Monday", "Soon.\n"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Schedule(ctx, it.ID, it.Revision.ID, clock.Add(-time.Minute)); err == nil {
			t.Error("a schedule in the past was taken")
		}
		it, err = s.Schedule(ctx, it.ID, it.Revision.ID, clock.Add(time.Hour))
		if err != nil || it.State != content.StateScheduled {
			t.Fatalf("schedule: %v %s", err, it.State)
		}

		p, err := s.CreatePreview(ctx, it.ID, "e@example.com", 0)
		if err != nil {
			t.Fatal(err)
		}
		token := strings.TrimPrefix(p.URL, content.PreviewPrefix)
		if got, exp, err := s.OpenPreview(ctx, token); err != nil || got.ID != it.ID || !exp.Equal(clock.Add(7*24*time.Hour)) {
			t.Fatalf("open preview: %v %d %v", err, got.ID, exp)
		}
		// A later save shows in the same link.
		if _, err := s.Save(ctx, it.ID, it.Revision.ID, "e@example.com", blogDraft("monday", "Monday", "Sooner.\n")); err != nil {
			t.Fatal(err)
		}
		if got, _, _ := s.OpenPreview(ctx, token); got.Revision.Body != "Sooner.\n" {
			t.Errorf("the preview shows %q, not the latest save", got.Revision.Body)
		}
		wrong := token[:42] + map[bool]string{true: "B", false: "A"}[token[42] == 'A']
		if _, _, err := s.OpenPreview(ctx, wrong); !content.IsNotFound(err) {
			t.Errorf("a wrong token opened a preview: %v", err)
		}
		if _, err := s.RevokePreview(ctx, it.ID, p.ID); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.OpenPreview(ctx, token); !content.IsNotFound(err) {
			t.Errorf("a revoked link still opens: %v", err)
		}
		p2, _ := s.CreatePreview(ctx, it.ID, "e@example.com", 1)
		mu.Lock()
		clock = clock.Add(25 * time.Hour)
		mu.Unlock()
		if _, _, err := s.OpenPreview(ctx, strings.TrimPrefix(p2.URL, content.PreviewPrefix)); !content.IsNotFound(err) {
			t.Errorf("an expired link still opens: %v", err)
		}
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestAScheduledPublishFiresOnceAcrossSeveralEdges(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s := seeded(t, db)
		it, err := s.Create(ctx, content.TypeBlog, "e@example.com", blogDraft("at-nine", "At nine", "Now.\n"))
		if err != nil {
			t.Fatal(err)
		}
		if it, err = s.Schedule(ctx, it.ID, it.Revision.ID, time.Now().Add(300*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		// Three edges on one database, each with its own store and loop.
		var mu sync.Mutex
		published := 0
		var wg sync.WaitGroup
		for i := 0; i < 3; i++ {
			edge := content.New(db, content.Options{})
			edge.Subscribe(func(_ context.Context, ch content.Change) {
				if ch.ID == it.ID && ch.State == content.StatePublished {
					mu.Lock()
					published++
					mu.Unlock()
				}
			})
			wg.Add(1)
			go func(i int) { defer wg.Done(); edge.RunScheduler(ctx, "edge-"+string(rune('a'+i))) }(i)
		}
		poll(t, func() bool { got, _ := s.Get(ctx, it.ID); return got.State == content.StatePublished }, "the scheduled article was not published")
		// Give the other edges several more turns: none publishes it again.
		for i := 0; i < 5; i++ {
			if _, err := s.PublishDue(ctx); err != nil {
				t.Fatal(err)
			}
		}
		cancel()
		wg.Wait()
		if published != 1 {
			t.Errorf("the scheduled publish was announced %d times, want once", published)
		}
		revs, _ := s.Revisions(context.Background(), it.ID)
		if len(revs) != 1 {
			t.Errorf("publishing made revisions: %d", len(revs))
		}
	})
}

func poll(t *testing.T, cond func() bool, msg string) {
	t.Helper()
	pollpkg.Until(t, 15*time.Second, cond, "%s", msg)
}

// Visitors and crawlers type a redirected address in other letter cases and
// with a trailing slash: each lands on the redirect's target in one 301 hop
// (the query kept), not on the not-found page.
func TestARedirectAnswersEverySpellingOfItsSourceInOneHop(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		s := seeded(t, db)
		if err := s.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
		h := s.Redirects(http.NotFoundHandler())
		for path, want := range map[string]string{
			"/pricing":             "/old-pricing",
			"/Pricing":             "/old-pricing",
			"/Pricing/":            "/old-pricing",
			"/PRICING/?utm_a=b":    "/old-pricing?utm_a=b",
			"/pricing/?plan=basic": "/old-pricing?plan=basic",
		} {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
			if w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != want {
				t.Errorf("GET %s: %d %q, want 301 to %s", path, w.Code, w.Header().Get("Location"), want)
			}
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/old-pricing", nil))
		if w.Code != http.StatusNotFound {
			t.Errorf("the target itself was answered %d by the redirects", w.Code)
		}
	})
}

// A content page answers Last-Modified from its content's own date (what
// the page shows as published or updated), never the time it was rendered:
// an article its updated day, the blog its newest article, a policy its
// date, a help category its newest article or its categories' text.
func TestContentPagesCarryTheirContentsDateAsLastModified(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		s := seeded(t, db)
		blog, err := s.Articles(ctx, content.TypeBlog)
		if err != nil {
			t.Fatal(err)
		}
		newest := ""
		for _, a := range blog {
			newest = max(newest, a.Modified())
		}
		policies, err := s.Policies(ctx)
		if err != nil {
			t.Fatal(err)
		}
		help, err := s.Articles(ctx, content.TypeHelp)
		if err != nil {
			t.Fatal(err)
		}
		httpDay := func(day string) string {
			d, err := time.Parse(time.DateOnly, day)
			if err != nil {
				t.Fatal(err)
			}
			return d.Format(http.TimeFormat)
		}
		want := map[string]string{
			"/blog":                                  httpDay(newest),
			"/blog/article/" + blog[0].Slug:          httpDay(blog[0].Modified()),
			"/" + policies[0].Slug:                   httpDay(policies[0].Date),
			"/help/category/article/" + help[0].Slug: httpDay(help[0].Modified()),
		}
		h := s.PageData(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("page")) }))
		for path, lm := range want {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
			if got := w.Header().Get("Last-Modified"); got != lm {
				t.Errorf("%s: Last-Modified %q, want %q", path, got, lm)
			}
		}
		// A help category: a day no earlier than its newest article's.
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/help/category/"+help[0].Category, nil))
		if got, err := http.ParseTime(w.Header().Get("Last-Modified")); err != nil || got.Format(time.DateOnly) < help[0].Modified() {
			t.Errorf("help category %s: Last-Modified %q, want a day from %s", help[0].Category, w.Header().Get("Last-Modified"), help[0].Modified())
		}
		// A page that shows no content has none.
		w = httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/features", nil))
		if got := w.Header().Get("Last-Modified"); got != "" {
			t.Errorf("/features: Last-Modified %q, want none from the content store", got)
		}
	})
}

// A studio edit of a category's introduction changes what its page (and
// the help centre, which lists the introductions' titles) shows, so their
// Last-Modified moves to that day: a crawler asking If-Modified-Since must
// not be told the page is unchanged since the repository's text.
func TestAStudioEditOfACategoryMovesItsPagesLastModified(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		edited := time.Date(2031, 5, 6, 10, 0, 0, 0, time.UTC)
		s, cat := contenttest.CategoryEditedOn(t, db, edited)
		h := s.PageData(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("page")) }))
		for _, path := range []string{"/help/category/" + cat.Slug, "/help-centre"} {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
			if got, want := w.Header().Get("Last-Modified"), edited.Truncate(24*time.Hour).Format(http.TimeFormat); got != want {
				t.Errorf("%s after its category's introduction was edited: Last-Modified %q, want %q", path, got, want)
			}
		}
	})
}

// Each help category page opens with an introduction of its own (40 to 80
// words of the category's content), so it is more than a title and a list
// of links: a searcher landing there learns what the topic covers.
func TestEveryHelpCategoryPageHasAnIntroduction(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		s := seeded(t, db)
		cats, err := s.Categories(ctx)
		if err != nil || len(cats) == 0 {
			t.Fatalf("%d categories, %v", len(cats), err)
		}
		for _, c := range cats {
			pc, err := s.PageContentFor(ctx, "/help/category/"+c.Slug)
			if err != nil || pc == nil || pc.Category == nil {
				t.Fatalf("%s: %v", c.Slug, err)
			}
			if n := len(strings.Fields(pc.Category.Intro)); n < 40 || n > 80 {
				t.Errorf("%s: an introduction of %d words, want 40 to 80: %q", c.Slug, n, pc.Category.Intro)
			}
		}
	})
}
