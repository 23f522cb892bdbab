package analytics

import (
	"context"
	"slices"
	"sort"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Count is one row of analytics_counts (migration 140): a day's count of
// one kind and key. Every edge adds into the same rows.
type Count struct {
	Day   string // UTC, 2006-01-02
	Kind  string
	Dim1  string
	Dim2  string
	Count int64
}

// TableName is migration 140's table.
func (Count) TableName() string { return "analytics_counts" }

// Kinds of count, and what Dim1 and Dim2 hold.
const (
	KindView     = "view"     // route pattern, and the page's path for a route with parameters ("" otherwise)
	KindCrawl    = "crawl"    // crawler name, route pattern
	KindClick    = "click"    // short link name, target
	KindCampaign = "campaign" // utm_campaign, utm_source/utm_medium
	KindReferrer = "referrer" // referring host, or Direct
)

// Flush writes the pending counts: one upsert per key adding to what is
// there (so edges sharing a database add up), in one transaction. Campaigns
// and referrers new to the day's rows are folded into Other once the day
// holds Cap of them, whichever edge wrote those. On failure the counts are
// put back for the next flush. Once a day it also deletes the rows older
// than Retention.
func (t *Tracker) Flush(ctx context.Context) error {
	t.flushMu.Lock()
	defer t.flushMu.Unlock()
	now := t.opts.Now().UTC()
	day := now.Format("2006-01-02")
	if t.pruned != day {
		if err := t.prune(ctx, now); err != nil {
			return err // the counts stay pending for the next flush
		}
		t.pruned = day
	}

	var rows []Count
	nRoutes := len(t.views)
	t.totMu.Lock()
	for i := range t.views {
		if n := t.views[i].Swap(0); n > 0 {
			rows = append(rows, Count{day, KindView, t.routes.patterns[i], "", int64(n)})
			t.viewTotals[i] += n
		}
	}
	for i := range t.crawls {
		if n := t.crawls[i].Swap(0); n > 0 {
			c := i / nRoutes
			rows = append(rows, Count{day, KindCrawl, t.bots.name(c), t.routes.patterns[i%nRoutes], int64(n)})
			t.crawlTotals[c] += n
		}
	}
	t.totMu.Unlock()
	direct := t.direct.Swap(0)
	t.mu.Lock()
	for k, n := range t.clicks {
		rows = append(rows, Count{day, KindClick, k[0], k[1], int64(n)})
	}
	clear(t.clicks)
	campaigns, referrers, pages := t.campaigns, t.referrers, t.pages
	t.campaigns, t.referrers, t.pages = map[campaign]uint64{}, map[string]uint64{}, map[pageKey]uint64{}
	searchRows := t.searchRowsLocked(day)
	if t.day != day { // a new day: its own cap
		t.day = day
		t.knownCampaigns, t.knownReferrers, t.knownPages = map[campaign]bool{}, map[string]bool{}, map[pageKey]bool{}
		t.knownQueries = map[string]bool{}
	}
	t.mu.Unlock()
	rows = append(rows, searchRows...)
	if direct > 0 {
		referrers[Direct] += direct
	}
	for c, n := range campaigns {
		dim2 := c.Source + "/" + c.Medium
		if c == (campaign{Campaign: Other}) {
			dim2 = ""
		}
		rows = append(rows, Count{day, KindCampaign, c.Campaign, dim2, int64(n)})
	}
	t.totMu.Lock()
	for k, n := range pages {
		rows = append(rows, Count{day, KindView, t.routes.patterns[k.route], k.path, int64(n)})
		t.viewTotals[k.route] += n
	}
	t.totMu.Unlock()
	for h, n := range referrers {
		rows = append(rows, Count{day, KindReferrer, h, "", int64(n)})
	}
	if len(rows) == 0 {
		return nil
	}
	err := t.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := t.capNew(tx, day, rows); err != nil {
			return err
		}
		rows = merge(rows)
		// The same order on every edge: concurrent upserts of overlapping
		// keys on PostgreSQL then wait for each other instead of deadlocking.
		sort.Slice(rows, func(i, j int) bool { return less(rows[i], rows[j]) })
		if err := tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "day"}, {Name: "kind"}, {Name: "dim1"}, {Name: "dim2"}},
			DoUpdates: clause.Assignments(map[string]any{"count": gorm.Expr("analytics_counts.count + excluded.count")}),
		}).CreateInBatches(rows, 500).Error; err != nil {
			return err
		}
		if t.beforeCommit != nil {
			t.beforeCommit()
		}
		return nil
	})
	if err != nil {
		t.putBack(rows)
	}
	return err
}

// capLockKey names the PostgreSQL advisory lock of a day's campaigns or
// referrers: one per schema, day and kind (databases in separate schemas
// of one server do not wait for each other).
const capLockKey = "hashtext('omnibus.analytics.' || coalesce(current_schema(), '') || '.' || ? || '.' || ?)"

// capNew folds campaigns, referrers and search queries that the day's
// rows do not hold yet into Other once they hold Cap of that kind, and
// pages of routes with parameters into their route once the day holds
// pathCap of them (rows is changed in place).
// On PostgreSQL, edges flushing at once would each read the day's rows
// before the other's commit and each add up to Cap new ones: a transaction
// lock per day and kind makes them take turns (the second reads what the
// first wrote). SQLite has one writer at a time (_txlock=immediate).
func (t *Tracker) capNew(tx *gorm.DB, day string, rows []Count) error {
	named := func(r Count) bool { return r.Dim1 != Other && r.Dim1 != Direct }
	toOther := func(r *Count) { r.Dim1, r.Dim2 = Other, "" }
	for _, k := range []struct {
		kind  string
		cap   int
		keyed func(Count) bool // the rows the cap is about
		fold  func(*Count)
	}{
		{KindCampaign, t.opts.Cap, func(r Count) bool { return r.Dim1 != Other }, toOther},
		{KindReferrer, t.opts.Cap, named, toOther},
		{KindSearch, t.opts.Cap, named, toOther},
		{KindSearchNone, t.opts.Cap, named, toOther},
		{KindSearchClick, t.opts.Cap, named, toOther},
		// A page of a route with parameters past the day's cap of paths is
		// counted by its route alone.
		{KindView, t.pathCap(), func(r Count) bool { return r.Dim2 != "" }, func(r *Count) { r.Dim2 = "" }},
	} {
		if !slices.ContainsFunc(rows, func(r Count) bool { return r.Kind == k.kind && k.keyed(r) }) {
			continue
		}
		if t.db.Postgres {
			if err := tx.Exec("SELECT pg_advisory_xact_lock("+capLockKey+")", day, k.kind).Error; err != nil {
				return err
			}
		}
		var have []Count
		q := tx.Select("dim1", "dim2").Where("day = ? AND kind = ?", day, k.kind)
		if k.kind == KindView {
			q = q.Where("dim2 <> ''")
		}
		if err := q.Find(&have).Error; err != nil {
			return err
		}
		known := make(map[[2]string]bool, len(have))
		for _, h := range have {
			if k.keyed(h) {
				known[[2]string{h.Dim1, h.Dim2}] = true
			}
		}
		count := len(known)
		for i := range rows {
			r := &rows[i]
			key := [2]string{r.Dim1, r.Dim2}
			if r.Kind != k.kind || !k.keyed(*r) || known[key] {
				continue
			}
			if count >= k.cap {
				k.fold(r)
				continue
			}
			known[key] = true
			count++
		}
	}
	return nil
}

// merge adds up rows of the same key (capNew may make several Other rows).
func merge(rows []Count) []Count {
	type key struct{ day, kind, d1, d2 string }
	at := map[key]int{}
	out := rows[:0]
	for _, r := range rows {
		k := key{r.Day, r.Kind, r.Dim1, r.Dim2}
		if i, ok := at[k]; ok {
			out[i].Count += r.Count
			continue
		}
		at[k] = len(out)
		out = append(out, r)
	}
	return out
}

func less(a, b Count) bool {
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	if a.Dim1 != b.Dim1 {
		return a.Dim1 < b.Dim1
	}
	return a.Dim2 < b.Dim2
}

// putBack returns unwritten counts to the pending ones, found by their
// keys. Views and crawls leave the totals since start (Totals: Prometheus)
// as they return to pending, so the sum of the two, what a scrape reads,
// neither drops nor counts them twice.
func (t *Tracker) putBack(rows []Count) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.totMu.Lock()
	defer t.totMu.Unlock()
	for _, r := range rows {
		n := uint64(r.Count)
		switch r.Kind {
		case KindView:
			if i := t.routes.of(r.Dim1); i >= 0 {
				t.viewTotals[i] -= n
				if r.Dim2 != "" {
					t.pages[pageKey{i, r.Dim2}] += n
				} else {
					t.views[i].Add(n)
				}
			}
		case KindCrawl:
			if i := t.routes.of(r.Dim2); i >= 0 {
				for c := range t.bots.count() {
					if t.bots.name(c) == r.Dim1 {
						t.crawls[c*len(t.views)+i].Add(n)
						t.crawlTotals[c] -= n
					}
				}
			}
		case KindClick:
			t.clicks[[2]string{r.Dim1, r.Dim2}] += uint64(r.Count)
		case KindReferrer:
			t.referrers[r.Dim1] += uint64(r.Count)
		case KindCampaign:
			c := campaign{Campaign: r.Dim1}
			c.Source, c.Medium, _ = cutSlash(r.Dim2)
			t.campaigns[c] += uint64(r.Count)
		default:
			t.putBackSearch(r)
		}
	}
}

func cutSlash(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// Retention is how long counts are kept: rows of days older than this many
// days are deleted (docs/analytics.md). 400 days: a year back, and the
// same month of the year before.
const Retention = 400

// prune deletes the rows of days older than Retention.
func (t *Tracker) prune(ctx context.Context, now time.Time) error {
	oldest := now.AddDate(0, 0, -Retention).Format("2006-01-02")
	return t.db.WithContext(ctx).Where("day < ?", oldest).Delete(&Count{}).Error
}
