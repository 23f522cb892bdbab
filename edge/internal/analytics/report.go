package analytics

import (
	"context"
	"sort"
)

// ReportDays is how far back the staff page looks.
const ReportDays = 30

// Report is the staff page's data: the last ReportDays days, today included.
type Report struct {
	From, To  string     // UTC days
	Days      []DayCount // every day, oldest first (zero days included)
	Views     []DayRoute // views per day and route (the CSV)
	Pages     []Row      // views by route, most first
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

// DayRoute is one day's views of one route.
type DayRoute struct {
	Day, Route string
	Views      int64
}

// Row is one line of a table.
type Row struct {
	Label, Detail string
	Count         int64
}

// Report reads the last ReportDays days (this edge's pending counts are
// written first, so what it just counted is there).
func (t *Tracker) Report(ctx context.Context) (*Report, error) {
	if err := t.Flush(ctx); err != nil {
		return nil, err
	}
	now := t.opts.Now().UTC()
	rep := &Report{To: now.Format("2006-01-02"), From: now.AddDate(0, 0, -(ReportDays - 1)).Format("2006-01-02")}
	var rows []Count
	if err := t.db.WithContext(ctx).Select("day", "kind", "dim1", "dim2", "count").
		Where("day >= ? AND day <= ?", rep.From, rep.To).Find(&rows).Error; err != nil {
		return nil, err
	}
	perDay := map[string]int64{}
	sums := map[string]map[[2]string]int64{}
	for _, r := range rows {
		if r.Kind == KindView {
			perDay[r.Day] += r.Count
			rep.Views = append(rep.Views, DayRoute{r.Day, r.Dim1, r.Count})
			rep.Total += r.Count
		}
		if sums[r.Kind] == nil {
			sums[r.Kind] = map[[2]string]int64{}
		}
		sums[r.Kind][[2]string{r.Dim1, r.Dim2}] += r.Count
		if r.Kind == KindCrawl {
			sums["crawler"] = addTo(sums["crawler"], [2]string{r.Dim1, ""}, r.Count)
		}
	}
	for d := range ReportDays {
		day := now.AddDate(0, 0, d-(ReportDays-1)).Format("2006-01-02")
		rep.Days = append(rep.Days, DayCount{day, perDay[day]})
		rep.Max = max(rep.Max, perDay[day])
	}
	sort.Slice(rep.Views, func(i, j int) bool {
		a, b := rep.Views[i], rep.Views[j]
		return a.Day < b.Day || a.Day == b.Day && a.Route < b.Route
	})
	rep.Pages = sorted(sums[KindView])
	rep.Campaigns = sorted(sums[KindCampaign])
	rep.Referrers = sorted(sums[KindReferrer])
	rep.Crawls = sorted(sums[KindCrawl])
	rep.Crawlers = sorted(sums["crawler"])
	rep.Searches, rep.SearchRows = searchReport(rows)
	clicks := sums[KindClick]
	for _, l := range t.links {
		rep.Clicks = append(rep.Clicks, Row{l.Name, l.Target, clicks[[2]string{l.Name, l.Target}]})
	}
	sort.SliceStable(rep.Clicks, func(i, j int) bool { return rep.Clicks[i].Count > rep.Clicks[j].Count })
	return rep, nil
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
