package analytics

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
	"omnibus/shared"
)

func newTracker(t testing.TB, db *storage.DB) *Tracker {
	tr, err := New(Options{DB: db, Routes: shared.Routes, LinksJSON: shared.CampaignLinksJSON, BotsJSON: shared.BotsJSON, PublicURL: "https://omnibus.example"})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

var page = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<!DOCTYPE html><title>x</title>")) })

// A flood of 100,000 distinct utm_campaign values, Referer hosts and
// article slugs grows neither the memory the counts take (the maps stay at
// the cap, flush after flush) nor the rows beyond the cap per day: the rest
// is counted as "other" (articles: by their route), and every view is still
// counted.
func TestFloodStaysBounded(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		tr := newTracker(t, db)
		h := tr.Pages(page)
		const n = 100_000
		for i := range n {
			r := httptest.NewRequest(http.MethodGet, "/blog/article/a"+strconv.Itoa(i)+"?utm_source=s&utm_campaign=c"+strconv.Itoa(i), nil)
			r.Header.Set("Referer", "https://h"+strconv.Itoa(i)+".example.net/")
			r.Header.Set("User-Agent", "Mozilla/5.0 Chrome/120.0.0.0 Safari/537.36")
			h.ServeHTTP(httptest.NewRecorder(), r)
			tr.mu.Lock()
			sizes := []int{len(tr.campaigns), len(tr.referrers), len(tr.knownCampaigns), len(tr.knownReferrers)}
			tr.mu.Unlock()
			for _, s := range sizes {
				if s > tr.opts.Cap+1 {
					t.Fatalf("after %d requests the maps hold %v, past the cap %d", i+1, sizes, tr.opts.Cap)
				}
			}
			if i%20_000 == 19_999 {
				if err := tr.Flush(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, kind := range []string{KindCampaign, KindReferrer} {
			var rows []Count
			if err := db.Where("kind = ?", kind).Find(&rows).Error; err != nil {
				t.Fatal(err)
			}
			var total, other int64
			for _, r := range rows {
				total += r.Count
				if r.Dim1 == Other {
					other = r.Count
				}
			}
			if len(rows) > tr.opts.Cap+1 || total != n || other != n-int64(tr.opts.Cap) {
				t.Errorf("%s: %d rows (cap %d), %d counted, %d as other", kind, len(rows), tr.opts.Cap, total, other)
			}
		}
		// Articles are counted by their own path up to the day's cap of
		// paths, the rest by their route: every view counted, rows bounded.
		var views []Count
		db.Where("kind = ? AND dim1 = ?", KindView, "/blog/article/:slug").Find(&views)
		var total int64
		for _, v := range views {
			total += v.Count
		}
		if total != n || len(views) > tr.pathCap()+1 {
			t.Errorf("views of /blog/article/:slug = %d in %d rows, want %d in at most %d", total, len(views), n, tr.pathCap()+1)
		}
		tr.mu.Lock()
		if len(tr.pages) > tr.pathCap() || len(tr.knownPages) > tr.pathCap() {
			t.Errorf("pending pages %d, known %d: past the cap %d", len(tr.pages), len(tr.knownPages), tr.pathCap())
		}
		tr.mu.Unlock()
		var rows int64
		db.Model(&Count{}).Count(&rows)
		if rows > int64(2*(tr.opts.Cap+1)+tr.pathCap()+1) {
			t.Errorf("%d rows in all", rows)
		}
	})
}

// Another edge on the same database cannot push the day past the cap
// either: new keys are folded into "other" at the flush once the day's
// rows hold Cap of them.
func TestCapHoldsAcrossEdges(t *testing.T) {
	db := storagetest.Postgres(t)
	a, b := newTracker(t, db), newTracker(t, db)
	a.opts.Cap, b.opts.Cap = 3, 3
	for i, tr := range []*Tracker{a, b} {
		for j := range 3 {
			r := httptest.NewRequest(http.MethodGet, fmt.Sprintf("/?utm_campaign=e%d-%d", i, j), nil)
			tr.Pages(page).ServeHTTP(httptest.NewRecorder(), r)
		}
		if err := tr.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	var rows []Count
	db.Where("kind = ?", KindCampaign).Order("dim1").Find(&rows)
	if len(rows) != 4 || rows[3].Dim1 != Other || rows[3].Count != 3 {
		t.Errorf("rows %+v, want e0-0..e0-2 and other 3", rows)
	}
}

// The work a cache hit adds: a same-site view of a page (the usual case),
// and a direct landing.
func BenchmarkCountView(b *testing.B) {
	tr := newTracker(b, storagetest.SQLite(b))
	for _, c := range []struct{ name, referer string }{{"same-site", "https://omnibus.example/"}, {"direct", ""}} {
		b.Run(c.name, func(b *testing.B) {
			r := httptest.NewRequest(http.MethodGet, "/features", nil)
			r.Header.Set("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36")
			if c.referer != "" {
				r.Header.Set("Referer", c.referer)
			}
			b.ReportAllocs()
			for b.Loop() {
				tr.count(http.StatusOK, r, "/features", "")
			}
		})
	}
}

// The costliest view: a landing under a campaign and from a host never seen
// before (past the day's cap, so "other"), as a flood of utm values and
// Referer headers sends (bench rows (l)/(l0) measure it end to end).
func BenchmarkCountFloodLanding(b *testing.B) {
	tr := newTracker(b, storagetest.SQLite(b))
	const n = 4096
	reqs := make([]*http.Request, n)
	queries := make([]string, n)
	for i := range reqs {
		reqs[i] = httptest.NewRequest(http.MethodGet, "/", nil)
		reqs[i].Header.Set("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36")
		reqs[i].Header.Set("Referer", fmt.Sprintf("https://h%d.example.net/", i))
		queries[i] = fmt.Sprintf("utm_source=s%d&utm_medium=email&utm_campaign=c%d", i, i)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tr.count(http.StatusOK, reqs[i%n], "/", queries[i%n])
		i++
	}
}

// A user agent not seen before: the pattern itself (once per user agent).
func BenchmarkBotMatch(b *testing.B) {
	bots, err := parseBots(shared.BotsJSON)
	if err != nil {
		b.Fatal(err)
	}
	ua := "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
	for b.Loop() {
		lower := lowerUA(ua)
		bots.match(lower, bots.nameIn(lower))
	}
}
