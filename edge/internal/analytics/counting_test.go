package analytics

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"

// Only a prefetch (or prerender) is not counted: Sec-Purpose in current
// browsers, Purpose in older ones, X-Moz in Firefox. Other values of those
// headers say nothing of the kind.
func TestNotCountedOnlyPrefetches(t *testing.T) {
	for _, c := range []struct {
		method, header, value string
		skip                  bool
	}{
		{"GET", "", "", false},
		{"HEAD", "", "", true},
		{"POST", "", "", true},
		{"GET", "Sec-Purpose", "prefetch", true},
		{"GET", "Sec-Purpose", "prefetch;prerender", true},
		{"GET", "Sec-Purpose", "prefetch;anonymous-client-ip", true},
		{"GET", "Sec-Purpose", "prefetch, prerender", true},
		{"GET", "Sec-Purpose", "Prefetch", true},
		{"GET", "Sec-Purpose", "", false},
		{"GET", "Sec-Purpose", "prefetcher", false},
		{"GET", "Purpose", "prefetch", true},
		{"GET", "Purpose", "preview", false},
		{"GET", "Purpose", "instant", false},
		{"GET", "X-Moz", "prefetch", true},
		{"GET", "X-Moz", "something-else", false},
		{"GET", "X-Purpose", "preview", false},
		{"GET", "Service-Worker", "script", true},
	} {
		r := httptest.NewRequest(c.method, "/features", nil)
		if c.header != "" {
			r.Header.Set(c.header, c.value)
		}
		if got := notCounted(r); got != c.skip {
			t.Errorf("%s %s: %q: not counted %v, want %v", c.method, c.header, c.value, got, c.skip)
		}
	}
}

// A flood of made-up user agents (every one new: the bot patterns' budget
// spent, slots overwritten) does not turn a search engine's visits into
// page views: each Googlebot visit, under a user agent it sends for the
// first time too, is counted as Googlebot's.
func TestKnownCrawlersDuringAFlood(t *testing.T) {
	db := storagetest.SQLite(t)
	tr := newTracker(t, db)
	h := tr.Pages(page)
	serve := func(ua string) {
		r := httptest.NewRequest(http.MethodGet, "/features", nil)
		r.Header.Set("User-Agent", ua)
		r.Header.Set("Referer", "https://omnibus.example/")
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	const flood, every = 20_000, 1_000
	for i := range flood {
		serve(fmt.Sprintf("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.%d.%d.0 Safari/537.36", i/100, i%100))
		if i%every == every-1 {
			serve(fmt.Sprintf("Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) "+
				"Chrome/131.0.%d.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", i))
		}
	}
	if err := tr.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	var rows []Count
	db.Where("dim1 IN ? OR dim2 = ?", []string{"/features", "googlebot"}, "/features").Find(&rows)
	got := map[string]int64{}
	for _, r := range rows {
		got[r.Kind+"|"+r.Dim1] = r.Count
	}
	if got["crawl|googlebot"] != flood/every || got["view|/features"] != flood {
		t.Errorf("googlebot visits %d (want %d), views %d (want %d): %v", got["crawl|googlebot"], flood/every, got["view|/features"], flood, got)
	}
}

// The Prometheus counters count each view this edge saw once, whether the
// database took it at the first write, at a later one, or not yet.
func TestPrometheusCountsEachViewOnce(t *testing.T) {
	tr := newTracker(t, storagetest.SQLite(t))
	if err := tr.Flush(context.Background()); err != nil { // the day's pruning, out of the way
		t.Fatal(err)
	}
	h := tr.Pages(page)
	for _, ua := range []string{chrome, chrome, chrome, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"} {
		r := httptest.NewRequest(http.MethodGet, "/features", nil)
		r.Header.Set("User-Agent", ua)
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	totals := func(when string) {
		t.Helper()
		var views, crawls uint64
		tr.Totals(func(route string, n uint64) {
			if route == "/features" {
				views = n
			}
		}, func(crawler string, n uint64) {
			if crawler == "googlebot" {
				crawls = n
			}
		})
		if views != 3 || crawls != 1 {
			t.Errorf("%s: omnibus_page_views_total{route=\"/features\"} %d, omnibus_crawler_visits_total{crawler=\"googlebot\"} %d; want 3 and 1", when, views, crawls)
		}
	}
	totals("before any write")
	failed, cancel := context.WithCancel(context.Background())
	cancel()
	for i := range 2 {
		if err := tr.Flush(failed); err == nil {
			t.Fatal("a write with a cancelled context succeeded")
		}
		totals(fmt.Sprintf("after failed write %d", i+1))
	}
	if err := tr.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	totals("once written")
	var n int64
	tr.db.Model(&Count{}).Where("kind = ? AND dim1 = ?", KindView, "/features").Select("count").Scan(&n)
	if n != 3 {
		t.Errorf("database: %d views of /features, want 3", n)
	}
}

// Edges flushing at the same moment cannot push a day past the cap either:
// while one edge's write is open, another's waits for it, then folds its new
// campaigns into "other".
func TestCapHoldsWhenEdgesFlushAtOnce(t *testing.T) {
	db := storagetest.Postgres(t)
	a, b := newTracker(t, db), newTracker(t, db)
	a.opts.Cap, b.opts.Cap = 3, 3
	for i, tr := range []*Tracker{a, b} {
		if err := tr.Flush(context.Background()); err != nil { // the day's pruning, out of the way
			t.Fatal(err)
		}
		for j := range 3 {
			r := httptest.NewRequest(http.MethodGet, fmt.Sprintf("/?utm_campaign=e%d-%d", i, j), nil)
			tr.Pages(page).ServeHTTP(httptest.NewRecorder(), r)
		}
	}
	aWrote, release, bWrote := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var releaseOnce sync.Once
	// Registered after the database's clean-up, so it runs first: a failed
	// test never leaves a's transaction open under the schema's drop.
	t.Cleanup(func() { releaseOnce.Do(func() { close(release) }) })
	a.beforeCommit = func() { close(aWrote); <-release }
	b.beforeCommit = func() { close(bWrote) }
	errs := make(chan error, 2)
	go func() { errs <- a.Flush(context.Background()) }()
	<-aWrote // a's rows are written, not committed
	go func() { errs <- b.Flush(context.Background()) }()
	// b waits for a lock a holds (the day's cap lock; without it, a row both
	// write, after reading the day's rows as they were before a), or writes
	// its own rows.
	poll.Until(t, 30*time.Second, func() bool {
		select {
		case <-bWrote:
			return true
		default:
		}
		var waiting int64
		db.Raw("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND (query LIKE '%omnibus.analytics.%' OR query LIKE '%analytics_counts%')").Scan(&waiting)
		return waiting > 0
	}, "the second flush neither waited nor wrote")
	releaseOnce.Do(func() { close(release) })
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	var rows []Count
	db.Where("kind = ?", KindCampaign).Order("dim1").Find(&rows)
	if len(rows) != 4 || rows[3].Dim1 != Other || rows[3].Count != 3 {
		t.Errorf("rows %+v, want e0-0..e0-2 and other 3", rows)
	}
}

// Rows older than Retention days go at the first write of a day.
func TestOldCountsPruned(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
		tr := newTracker(t, db)
		tr.opts.Now = func() time.Time { return now }
		kept, gone := now.AddDate(0, 0, -Retention).Format("2006-01-02"), now.AddDate(0, 0, -Retention-1).Format("2006-01-02")
		for _, day := range []string{gone, kept} {
			if err := db.Create(&Count{Day: day, Kind: KindView, Dim1: "/features", Count: 5}).Error; err != nil {
				t.Fatal(err)
			}
		}
		if err := tr.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		var days []string
		db.Model(&Count{}).Order("day").Pluck("day", &days)
		if strings.Join(days, ",") != kept {
			t.Errorf("days kept %v, want only %s (%d days back)", days, kept, Retention)
		}
	})
}

// A marketer asks which article works: views of two articles of one route
// are counted apart (the page's path, not /blog/article/:slug), on a
// client-side navigation (.data) too; the route's Prometheus total still
// holds both; a failed write keeps them apart for the next one.
func TestArticlesAreCountedByTheirOwnPath(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		tr := newTracker(t, db)
		h := tr.Pages(page)
		for _, p := range []string{"/blog/article/festive-season-checklist", "/blog/article/festive-season-checklist.data",
			"/blog/article/goal-based-advertising", "/features"} {
			r := httptest.NewRequest(http.MethodGet, p, nil)
			r.Header.Set("User-Agent", chrome)
			h.ServeHTTP(httptest.NewRecorder(), r)
		}
		failed, cancel := context.WithCancel(context.Background())
		cancel()
		if err := tr.Flush(failed); err == nil {
			t.Fatal("a write with a cancelled context succeeded")
		}
		from, to := tr.DefaultRange()
		got, err := tr.ViewsByPath(context.Background(), from, to)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int64{"/blog/article/festive-season-checklist": 2, "/blog/article/goal-based-advertising": 1, "/features": 1}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("views by path %v, want %v", got, want)
		}
		rep, err := tr.Report(context.Background(), from, to)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Pages) != 3 || rep.Pages[0].Label != "/blog/article/festive-season-checklist" || rep.Pages[0].Count != 2 {
			t.Errorf("top pages %+v", rep.Pages)
		}
		var total uint64
		tr.Totals(func(route string, n uint64) {
			if route == "/blog/article/:slug" {
				total = n
			}
		}, func(string, uint64) {})
		if total != 3 {
			t.Errorf("omnibus_page_views_total{route=\"/blog/article/:slug\"} %d, want 3", total)
		}
	})
}

// The insights page's range: ?from=&to= picks the days; nonsense falls back
// to the last 30 days and says so; a range past today stops at today.
func TestInsightsRange(t *testing.T) {
	tr := newTracker(t, storagetest.SQLite(t))
	today := tr.Today()
	d := func(n int) string { return today.AddDate(0, 0, n).Format(dayLayout) }
	for _, c := range []struct {
		from, to, wantFrom, wantTo string
		note                       bool
	}{
		{"", "", d(-29), d(0), false},
		{d(-6), d(0), d(-6), d(0), false},
		{d(-400), d(-300), d(-400), d(-300), false},
		{d(-3), d(5), d(-3), d(0), false},
		{d(0), d(-3), d(-29), d(0), true},
		{"yesterday", d(0), d(-29), d(0), true},
		{d(-900), d(-10), d(-Retention), d(-10), true},
	} {
		f, to, note := tr.rangeOf(map[string][]string{"from": {c.from}, "to": {c.to}})
		if f.Format(dayLayout) != c.wantFrom || to.Format(dayLayout) != c.wantTo || (note != "") != c.note {
			t.Errorf("%s..%s: %s..%s note %q", c.from, c.to, f.Format(dayLayout), to.Format(dayLayout), note)
		}
	}
}
