package studio_test

// Publishing's figures for make bench (bench/run.sh prints them in
// bench/RESULTS.md, "Publishing"): how soon a publish, and a scheduled
// publish, is served as a cache hit by every edge of one PostgreSQL, and
// what the content pages cost the edge at 10,000 articles against today's
// handful. The renderer is the stand-in (contentRenderer): the figures are
// the edge's side of a render (the page's content read and attached to the
// request, the sitemap and feeds built), not React's.

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"omnibus/edge/internal/config"
	"omnibus/edge/internal/content"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// threeEdges starts three warming edges on one fresh PostgreSQL schema,
// signs a publisher in on the first, and publishes an article there with
// the text "Version 0."; it returns the edges, the publisher, the article's
// id and latest revision once every edge serves it as a hit.
func threeEdges(b *testing.B) ([]*edgetest.Edge, client, float64, float64) {
	db := storagetest.Postgres(b)
	ru := contentRenderer(b)
	var edges []*edgetest.Edge
	for range 3 {
		edges = append(edges, edgetest.Start(b, edgetest.Options{DB: db, RendererURL: ru, Config: func(c *config.Config) { c.CacheWarm = true }}))
	}
	for i, e := range edges {
		poll.Until(b, 60*time.Second, func() bool { return e.App.Cache.WarmUps() > 0 }, "edge %d never finished its first warm-up", i)
	}
	ed := client{b, edges[0].URL, stafftest.SignIn(b, db, "publisher@example.com", staff.Publisher)}
	code, out := ed.do(http.MethodPost, "/api/v1/staff/content", map[string]any{"type": "blog", "slug": benchSlug, "fields": benchFields, "body": "Version 0.\n"})
	if code != http.StatusCreated {
		b.Fatalf("create: %d %v", code, out)
	}
	id, rev := item(b, out)
	if code, out := ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/publish", int(id)), map[string]any{"revisionId": rev}); code != 200 {
		b.Fatalf("publish: %d %v", code, out)
	}
	if _, err := hitEverywhere(edges, "Version 0.", 10*time.Second); err != nil {
		b.Fatal(err)
	}
	return edges, ed, id, rev
}

const benchSlug = "bench-publishing"

var benchFields = map[string]string{"title": "Publishing, measured", "description": "d", "date": "2026-11-27", "category": "Growth"}

// save saves text as the article's next revision and returns it.
func (c client) save(id, base float64, text string) float64 {
	c.t.Helper()
	code, out := c.do(http.MethodPut, fmt.Sprintf("/api/v1/staff/content/%d", int(id)), map[string]any{"baseRevisionId": base, "slug": benchSlug, "fields": benchFields, "body": text})
	if code != 200 {
		c.t.Fatalf("save: %d %v", code, out)
	}
	_, rev := item(c.t, out)
	return rev
}

// hitEverywhere asks every edge for the article, each every 2 ms, until
// each answers it as a cache hit with want, and returns when each first
// did (the latest of them is when the whole site serves it).
func hitEverywhere(edges []*edgetest.Edge, want string, limit time.Duration) ([]time.Time, error) {
	seen := make([]time.Time, len(edges))
	errs := make([]error, len(edges))
	var wg sync.WaitGroup
	for i, e := range edges {
		wg.Add(1)
		go func() {
			defer wg.Done()
			began := time.Now()
			for time.Since(began) < limit {
				req, _ := http.NewRequest(http.MethodGet, e.URL+"/blog/article/"+benchSlug, nil)
				req.Header.Set("User-Agent", edgetest.ChromeUA)
				if res, err := http.DefaultClient.Do(req); err == nil {
					body, _ := io.ReadAll(res.Body)
					res.Body.Close()
					if res.StatusCode == 200 && res.Header.Get("X-Cache") == "HIT" && strings.Contains(string(body), want) {
						seen[i] = time.Now()
						return
					}
				}
				time.Sleep(2 * time.Millisecond)
			}
			errs[i] = fmt.Errorf("edge %d: %q not served as a hit within %s", i, want, limit)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return seen, nil
}

// percentiles reports the median and the 95th percentile (nearest rank)
// of ds in milliseconds, named prefix-p50-ms and prefix-p95-ms.
func percentiles(b *testing.B, prefix string, ds []time.Duration) {
	slices.Sort(ds)
	at := func(p float64) float64 {
		i := int(p*float64(len(ds))+0.999999) - 1
		return float64(ds[max(i, 0)].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), prefix+"p50-ms")
	b.ReportMetric(at(0.95), prefix+"p95-ms")
	b.ReportMetric(float64(ds[len(ds)-1].Microseconds())/1000, prefix+"max-ms")
}

// BenchmarkPublishServedEverywhere publishes a new text of one article per
// iteration (make bench: 20) on the first of three edges and measures from
// sending the publish until all three answer it as a cache hit with the
// new text (site-*), and until the publish's own answer (answer-*).
// Target: site p95 ≤ 1 s.
func BenchmarkPublishServedEverywhere(b *testing.B) {
	edges, ed, id, rev := threeEdges(b)
	var site, answer []time.Duration
	n := 0
	for b.Loop() {
		n++
		text := fmt.Sprintf("Version %d.", n)
		rev = ed.save(id, rev, text+"\n")
		sent := time.Now()
		var seen []time.Time
		var err error
		done := make(chan struct{})
		go func() { defer close(done); seen, err = hitEverywhere(edges, text, 10*time.Second) }()
		if code, out := ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/publish", int(id)), map[string]any{"revisionId": rev}); code != 200 {
			b.Fatalf("publish: %d %v", code, out)
		}
		answer = append(answer, time.Since(sent))
		<-done
		if err != nil {
			b.Fatal(err)
		}
		site = append(site, slices.MaxFunc(seen, time.Time.Compare).Sub(sent))
	}
	percentiles(b, "site-", site)
	percentiles(b, "answer-", answer)
}

// BenchmarkScheduledPublishServedEverywhere schedules a new text of one
// article 1.5 s ahead per iteration (make bench: 5) and measures from the
// scheduled time until all three edges answer it as a cache hit with the
// new text. The scheduler looks for due items every
// content.SchedulerInterval on the edge holding its lease. Target: p95 ≤ 1 s.
func BenchmarkScheduledPublishServedEverywhere(b *testing.B) {
	edges, ed, id, rev := threeEdges(b)
	var late []time.Duration
	n := 0
	for b.Loop() {
		n++
		text := fmt.Sprintf("Scheduled %d.", n)
		rev = ed.save(id, rev, text+"\n")
		at := time.Now().Add(1500 * time.Millisecond).UTC()
		if code, out := ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/schedule", int(id)), map[string]any{"revisionId": rev, "at": at.Format(time.RFC3339Nano)}); code != 200 {
			b.Fatalf("schedule: %d %v", code, out)
		}
		seen, err := hitEverywhere(edges, text, 15*time.Second)
		if err != nil {
			b.Fatal(err)
		}
		last := slices.MaxFunc(seen, time.Time.Compare)
		if last.Before(at) {
			b.Fatalf("the scheduled text was served %s before its time", at.Sub(last))
		}
		late = append(late, last.Sub(at))
	}
	b.ReportMetric(float64(content.SchedulerInterval.Milliseconds()), "scheduler-interval-ms")
	percentiles(b, "after-time-", late)
}

// BenchmarkContentPages asks one edge (page cache off: every request is a
// render) for the blog index, a help category page, the feed and the
// sitemap, on today's content and again after 10,000 articles were added
// (a third blog posts, the rest help articles across today's categories),
// and reports each one's median in milliseconds. The feed and the sitemap
// are asked first after a change of one article's published revision and
// the Refresh that follows (as a publish does), which builds both and
// compresses them before it returns; the next (-again) is served
// from the same memory.
// Each is timed to its last byte as sent (gzip), not to the client's
// inflating it.
// refresh- is that Refresh.
// Target: each at most twice today's at 10,000 articles.
func BenchmarkContentPages(b *testing.B) {
	db := storagetest.Postgres(b)
	e := edgetest.Start(b, edgetest.Options{DB: db, RendererURL: contentRenderer(b), Config: func(c *config.Config) { c.CacheMaxBytes = 0 }})
	ctx := context.Background()
	cats, err := e.App.Content.Categories(ctx)
	if err != nil || len(cats) == 0 {
		b.Fatalf("categories: %v %v", cats, err)
	}
	category := "/help/category/" + cats[0].Slug
	change := oneArticleChange(b, db)
	b.Run("today", func(b *testing.B) { benchPages(b, e, category, 0, change) })
	addArticles(b, db, 10000, cats)
	if err := e.App.Content.Refresh(ctx); err != nil {
		b.Fatal(err)
	}
	b.Run("10000-articles", func(b *testing.B) { benchPages(b, e, category, 10000, change) })
}

// oneArticleChange returns a function that changes one blog article's
// published revision (to a copy of it and back), as a publish does, for
// the Refresh that follows to find one change: a Refresh that finds none
// rebuilds nothing.
func oneArticleChange(b *testing.B, db *storage.DB) func() {
	var it struct{ ID, PublishedRevisionID uint64 }
	if err := db.Table("content_items").Select("id, published_revision_id").Where("type = ? AND state = ?", content.TypeBlog, content.StatePublished).
		Order("id").Limit(1).Scan(&it).Error; err != nil || it.ID == 0 {
		b.Fatalf("a published blog article: %v", err)
	}
	if err := db.Exec(`INSERT INTO content_revisions (item_id, number, slug, fields, body, html, author, note, created_at)
		SELECT item_id, number + 1000, slug, fields, body, html, author, note, created_at FROM content_revisions WHERE id = ?`, it.PublishedRevisionID).Error; err != nil {
		b.Fatal(err)
	}
	var revs []uint64
	if err := db.Table("content_revisions").Where("item_id = ?", it.ID).Order("id DESC").Limit(1).Pluck("id", &revs).Error; err != nil || len(revs) == 0 {
		b.Fatalf("the copy: %v", err)
	}
	pair := [2]uint64{it.PublishedRevisionID, revs[0]}
	n := 0
	return func() {
		n++
		if err := db.Exec("UPDATE content_items SET published_revision_id = ? WHERE id = ?", pair[n%2], it.ID).Error; err != nil {
			b.Fatal(err)
		}
	}
}

func benchPages(b *testing.B, e *edgetest.Edge, category string, added int, change func()) {
	ctx := context.Background()
	times := map[string][]time.Duration{}
	refresh := func() {
		change()
		began := time.Now()
		if err := e.App.Content.Refresh(ctx); err != nil {
			b.Fatal(err)
		}
		times["refresh-"] = append(times["refresh-"], time.Since(began))
	}
	get := func(name, path, want string) {
		began := time.Now()
		res, raw := e.Get(b, path, acceptGzip)
		times[name] = append(times[name], time.Since(began))
		body := decoded(b, res, raw)
		if res.StatusCode != 200 || !strings.Contains(body, want) {
			b.Fatalf("%s: %d, %q not in %.300q", path, res.StatusCode, want, body)
		}
	}
	// Proof each page carries the added articles: the sitemap lists
	// every one, the blog index and the category page show some.
	sitemapWant, listWant := "</urlset>", "<li>"
	if added > 0 {
		sitemapWant, listWant = fmt.Sprintf("/bench-article-%d</loc>", added-1), "Bench article"
	}
	for b.Loop() {
		get("blog-", "/blog", listWant)
		get("help-category-", category, listWant)
		refresh()
		get("feed-", "/rss.xml", "<rss")
		get("feed-again-", "/rss.xml", "<rss")
		refresh()
		get("sitemap-", "/sitemap.xml", sitemapWant)
		get("sitemap-again-", "/sitemap.xml", sitemapWant)
	}
	for _, name := range []string{"blog-", "help-category-", "feed-", "feed-again-", "sitemap-", "sitemap-again-", "refresh-"} {
		ds := times[name]
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, name+"p50-ms")
	}
}

// acceptGzip asks as a crawler does: the body comes as it was sent, and the
// time to it is the edge's. (Go's client, left to itself, would decompress
// the body while it is read, and a 1.3 MB sitemap takes it longer to
// inflate than the edge takes to send.)
var acceptGzip = http.Header{"Accept-Encoding": {"gzip"}}

// decoded is the text of a body asked with acceptGzip.
func decoded(b *testing.B, res *http.Response, raw string) string {
	if res.Header.Get("Content-Encoding") != "gzip" {
		return raw
	}
	r, err := gzip.NewReader(strings.NewReader(raw))
	if err != nil {
		b.Fatal(err)
	}
	text, err := io.ReadAll(r)
	if err != nil {
		b.Fatal(err)
	}
	return string(text)
}

// addArticles inserts n published articles straight into the content
// tables (the store's own path would take minutes at this size): every
// third a blog post, the others help articles spread over cats, each with
// one revision of a few paragraphs.
func addArticles(b *testing.B, db *storage.DB, n int, cats []content.Category) {
	now := time.Now().UTC()
	const batch = 500
	for start := 0; start < n; start += batch {
		var items, revs []map[string]any
		for i := start; i < min(start+batch, n); i++ {
			typ, category := content.TypeBlog, "Growth"
			if i%3 != 0 {
				typ, category = content.TypeHelp, cats[i%len(cats)].Slug
			}
			slug := fmt.Sprintf("bench-article-%d", i)
			items = append(items, map[string]any{"type": typ, "slug": slug, "state": content.StatePublished, "latest_revision_id": 0,
				"seed_key": "", "seed_hash": "", "staff_edited": true, "published_at": now, "created_at": now, "updated_at": now})
			date := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%2500).Format("2006-01-02")
			fields := fmt.Sprintf(`{"title":"Bench article %d","description":"What article %d says, in one sentence.","date":%q,"category":%q}`, i, i, date, category)
			revs = append(revs, map[string]any{"slug": slug, "fields": fields, "body": "A paragraph.\n\nAnother.\n",
				"html": "<p>A paragraph.</p>\n<p>Another.</p>\n", "author": "bench", "note": "", "created_at": now, "number": 1, "item_id": 0, "type": typ})
		}
		if err := db.Table("content_items").Create(items).Error; err != nil {
			b.Fatal(err)
		}
		// Each revision names its item: looked up by slug and type.
		type idRow struct {
			ID         uint64
			Type, Slug string
		}
		var ids []idRow
		if err := db.Table("content_items").Select("id, type, slug").Where("slug LIKE ?", "bench-article-%").Scan(&ids).Error; err != nil {
			b.Fatal(err)
		}
		byKey := map[string]uint64{}
		for _, r := range ids {
			byKey[r.Type+"/"+r.Slug] = r.ID
		}
		for _, r := range revs {
			r["item_id"] = byKey[r["type"].(string)+"/"+r["slug"].(string)]
			delete(r, "type")
		}
		if err := db.Table("content_revisions").Create(revs).Error; err != nil {
			b.Fatal(err)
		}
	}
	set := "(SELECT r.id FROM content_revisions r WHERE r.item_id = content_items.id)"
	if err := db.Exec("UPDATE content_items SET latest_revision_id = "+set+", published_revision_id = "+set+" WHERE slug LIKE ?", "bench-article-%").Error; err != nil {
		b.Fatal(err)
	}
}
