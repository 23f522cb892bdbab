package analytics

import (
	"context"
	"sort"
	"time"
)

// ReportDays is how far back the staff page looks unless a range is asked.
const ReportDays = 30

// Report is the staff page's data: the days From to To, both included.
type Report struct {
	From, To  string     // UTC days
	Days      []DayCount // every day, oldest first (zero days included)
	Views     []DayRoute // views per day and page (the CSV)
	Pages     []Row      // views by page (an article by its own path), most first
	Campaigns []Row      // landings by campaign (Label utm_campaign, Detail source/medium)
	Referrers []Row      // landings by referring host
	Clicks    []Row      // clicks by short link (Detail: target), every link
	Crawls    []Row      // crawler visits (Label crawler, Detail route)
	Crawlers  []Row      // crawler visits by crawler
	// Searches are the days with site searches, newest first (the last
	// SearchReportDays); SearchRows every day's queries (the CSV).
	Searches   []SearchDay
	SearchRows []SearchRow
	Total      int64 // views in the period
	Max        int64 // the busiest day's views
}

// DayCount is one day's views.
type DayCount struct {
	Day   string
	Views int64
}

// DayRoute is one day's views of one page: Route is its pattern, Path the
// page (the pattern itself for a route without parameters).
type DayRoute struct {
	Day, Route, Path string
	Views            int64
}

// Row is one line of a table.
type Row struct {
	Label, Detail string
	Count         int64
}

// DefaultRange is the last ReportDays days, today included.
func (t *Tracker) DefaultRange() (from, to time.Time) {
	to = day(t.opts.Now())
	return to.AddDate(0, 0, -(ReportDays - 1)), to
}

// Today is the tracker's current UTC day.
func (t *Tracker) Today() time.Time { return day(t.opts.Now()) }

func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Report reads the days from to to, both included (this edge's pending
// counts are written first, so what it just counted is there).
func (t *Tracker) Report(ctx context.Context, from, to time.Time) (*Report, error) {
	if err := t.Flush(ctx); err != nil {
		return nil, err
	}
	from, to = day(from), day(to)
	rep := &Report{From: from.Format("2006-01-02"), To: to.Format("2006-01-02")}
	var rows []Count
	if err := t.db.WithContext(ctx).Select("day", "kind", "dim1", "dim2", "count").
		Where("day >= ? AND day <= ?", rep.From, rep.To).Find(&rows).Error; err != nil {
		return nil, err
	}
	perDay := map[string]int64{}
	sums := map[string]map[[2]string]int64{}
	for _, r := range rows {
		if r.Kind == KindView {
			path := pagePath(r)
			perDay[r.Day] += r.Count
			rep.Views = append(rep.Views, DayRoute{r.Day, r.Dim1, path, r.Count})
			rep.Total += r.Count
			sums["page"] = addTo(sums["page"], [2]string{path, ""}, r.Count)
		}
		if sums[r.Kind] == nil {
			sums[r.Kind] = map[[2]string]int64{}
		}
		sums[r.Kind][[2]string{r.Dim1, r.Dim2}] += r.Count
		if r.Kind == KindCrawl {
			sums["crawler"] = addTo(sums["crawler"], [2]string{r.Dim1, ""}, r.Count)
		}
	}
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		k := d.Format("2006-01-02")
		rep.Days = append(rep.Days, DayCount{k, perDay[k]})
		rep.Max = max(rep.Max, perDay[k])
	}
	sort.Slice(rep.Views, func(i, j int) bool {
		a, b := rep.Views[i], rep.Views[j]
		return a.Day < b.Day || a.Day == b.Day && a.Path < b.Path
	})
	rep.Pages = sorted(sums["page"])
	rep.Campaigns = sorted(sums[KindCampaign])
	rep.Referrers = sorted(sums[KindReferrer])
	rep.Crawls = sorted(sums[KindCrawl])
	rep.Crawlers = sorted(sums["crawler"])
	rep.Searches, rep.SearchRows = searchReport(rows)
	clicks := sums[KindClick]
	for _, l := range t.Links() {
		rep.Clicks = append(rep.Clicks, Row{l.Name, l.Target, clicks[[2]string{l.Name, l.Target}]})
	}
	sort.SliceStable(rep.Clicks, func(i, j int) bool { return rep.Clicks[i].Count > rep.Clicks[j].Count })
	return rep, nil
}

// pagePath is the page a view row counts: its path, or for a route without
// parameters (or views past the cap of paths) its pattern.
func pagePath(r Count) string {
	if r.Dim2 != "" {
		return r.Dim2
	}
	return r.Dim1
}

// ViewsByPath is the views of each page from to to (both days included):
// the studio shows each article's beside it. Pending counts are written
// first.
func (t *Tracker) ViewsByPath(ctx context.Context, from, to time.Time) (map[string]int64, error) {
	if err := t.Flush(ctx); err != nil {
		return nil, err
	}
	var rows []Count
	if err := t.db.WithContext(ctx).Select("dim1", "dim2", "count").
		Where("kind = ? AND day >= ? AND day <= ?", KindView, day(from).Format("2006-01-02"), day(to).Format("2006-01-02")).
		Find(&rows).Error; err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, r := range rows {
		out[pagePath(r)] += r.Count
	}
	return out, nil
}

func addTo(m map[[2]string]int64, k [2]string, n int64) map[[2]string]int64 {
	if m == nil {
		m = map[[2]string]int64{}
	}
	m[k] += n
	return m
}

// sorted is m's rows, largest count first, then by label.
func sorted(m map[[2]string]int64) []Row {
	rows := make([]Row, 0, len(m))
	for k, n := range m {
		rows = append(rows, Row{k[0], k[1], n})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Count != rows[j].Count {
			return rows[i].Count > rows[j].Count
		}
		if rows[i].Label != rows[j].Label {
			return rows[i].Label < rows[j].Label
		}
		return rows[i].Detail < rows[j].Detail
	})
	return rows
}
