package analytics

import (
	"net/http"
	"net/url"
	"sort"
	"strings"
	"unicode"

	"omnibus/edge/internal/search"
)

// Site search, for marketing: what visitors searched for, what found
// nothing and what found results nobody opened, per day, under the rules
// of the campaign counts: the query normalised (search.Normalise) and cut
// to maxQuery characters, at most Cap distinct queries a day with the rest
// counted as Other, never a query that looks like an e-mail address, a
// phone number or a card number (counted as Other), and nothing of the
// visitor (no address, no cookie).
const (
	KindSearch      = "search"       // query: searches
	KindSearchNone  = "search-none"  // query: searches that found nothing
	KindSearchClick = "search-click" // query: results opened from its page
	// maxQuery caps a counted query.
	maxQuery = 64
	// maxDigits: a query with this many digits or more may be a phone or
	// card number, and is not kept.
	maxDigits = 6
)

// searchCounts are a day's pending search counts by query.
type searchCounts struct{ searches, none, clicks map[string]uint64 }

func newSearchCounts() searchCounts {
	return searchCounts{map[string]uint64{}, map[string]uint64{}, map[string]uint64{}}
}

// Searched counts one search of the search page (search.Options.Searched):
// raw is ?q= as sent, query as searched, total the documents found. A
// prefetch, a crawler or a HEAD is not a search.
func (t *Tracker) Searched(r *http.Request, query string, total int) {
	if countingOff || notCounted(r) {
		return
	}
	if ua := r.Header[uaKey]; len(ua) > 0 && t.bots.crawler(ua[0]) >= 0 {
		return
	}
	q := reportable(r.URL.Query().Get("q"), query)
	t.mu.Lock()
	defer t.mu.Unlock()
	q = t.admitQueryLocked(q)
	t.search.searches[q]++
	if total == 0 {
		t.search.none[q]++
	}
}

// searchClick counts a page opened from a result of the search page: a
// view whose Referer is this site's search page.
func (t *Tracker) searchClick(r *http.Request, path string) {
	ref := r.Header[refererKey]
	if len(ref) == 0 || !strings.Contains(ref[0], search.Path+"?") || strings.HasPrefix(path, search.Path) {
		return
	}
	u, err := url.Parse(ref[0])
	if err != nil || u.Path != search.Path {
		return
	}
	if h := strings.ToLower(u.Hostname()); h != hostOnly(r.Host) && h != t.publicHost {
		return
	}
	raw := u.Query().Get("q")
	q := search.Normalise(raw)
	if q == "" {
		return
	}
	q = reportable(raw, q)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.search.clicks[t.admitQueryLocked(q)]++
}

// admitQueryLocked is q, or Other once the day has Cap queries.
func (t *Tracker) admitQueryLocked(q string) string {
	if t.knownQueries[q] || q == Other {
		return q
	}
	if len(t.knownQueries) >= t.opts.Cap {
		return Other
	}
	t.knownQueries[q] = true
	return q
}

// reportable is the form of a query the counts keep: Other when the query
// as sent looks like an e-mail address, a phone number or a card number,
// else the query as searched, cut to maxQuery characters at a word.
func reportable(raw, query string) string {
	if strings.ContainsAny(raw, "@＠") {
		return Other
	}
	digits := 0
	for _, r := range raw {
		if unicode.IsDigit(r) {
			if digits++; digits >= maxDigits {
				return Other
			}
		}
	}
	if len(query) > maxQuery {
		cut := query[:maxQuery]
		if i := strings.LastIndexByte(cut, ' '); i > 0 {
			cut = cut[:i]
		}
		query = strings.ToValidUTF8(cut, "")
	}
	if query == "" {
		return Other
	}
	return query
}

// searchRows moves the pending search counts into rows of day.
func (t *Tracker) searchRowsLocked(day string) []Count {
	var rows []Count
	for kind, m := range map[string]map[string]uint64{KindSearch: t.search.searches, KindSearchNone: t.search.none, KindSearchClick: t.search.clicks} {
		for q, n := range m {
			rows = append(rows, Count{day, kind, q, "", int64(n)})
		}
	}
	t.search = newSearchCounts()
	return rows
}

// putBackSearch returns an unwritten search row to the pending counts.
func (t *Tracker) putBackSearch(r Count) bool {
	var m map[string]uint64
	switch r.Kind {
	case KindSearch:
		m = t.search.searches
	case KindSearchNone:
		m = t.search.none
	case KindSearchClick:
		m = t.search.clicks
	default:
		return false
	}
	m[r.Dim1] += uint64(r.Count)
	return true
}

// SearchReportDays is how many days the staff page lists searches for
// (the CSV has the whole period).
const SearchReportDays = 7

// searchTop is how many queries each of a day's lists shows.
const searchTop = 10

// SearchDay is one day's searches.
type SearchDay struct {
	Day      string
	Searches int64
	// Top are the most searched queries (Count searches, Clicks results
	// opened); NoResults the most searched that found nothing; NoClicks
	// the most searched that found something nobody opened.
	Top, NoResults, NoClicks []SearchRow
}

// SearchRow is one query of a day.
type SearchRow struct {
	Day, Query string
	// Count searches, NoResult of them found nothing, Clicks results opened.
	Count, NoResult, Clicks int64
}

// searchReport is the period's searches: the days with any, newest first
// (the last SearchReportDays of them), and every day's queries (the CSV),
// newest day first, most searched first.
func searchReport(rows []Count) (days []SearchDay, all []SearchRow) {
	type key struct{ day, q string }
	byKey := map[key]*SearchRow{}
	for _, r := range rows {
		if r.Kind != KindSearch && r.Kind != KindSearchNone && r.Kind != KindSearchClick {
			continue
		}
		k := key{r.Day, r.Dim1}
		sr := byKey[k]
		if sr == nil {
			sr = &SearchRow{Day: r.Day, Query: r.Dim1}
			byKey[k] = sr
		}
		switch r.Kind {
		case KindSearch:
			sr.Count += r.Count
		case KindSearchNone:
			sr.NoResult += r.Count
		case KindSearchClick:
			sr.Clicks += r.Count
		}
	}
	for _, sr := range byKey {
		all = append(all, *sr)
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.Day != b.Day {
			return a.Day > b.Day
		}
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Query < b.Query
	})
	for _, sr := range all {
		if sr.Count == 0 {
			continue // opened from a search page of another day
		}
		if n := len(days); n == 0 || days[n-1].Day != sr.Day {
			if n == SearchReportDays {
				break
			}
			days = append(days, SearchDay{Day: sr.Day})
		}
		sd := &days[len(days)-1]
		sd.Searches += sr.Count
		if len(sd.Top) < searchTop {
			sd.Top = append(sd.Top, sr)
		}
		if sr.NoResult > 0 && len(sd.NoResults) < searchTop {
			sd.NoResults = append(sd.NoResults, sr)
		}
		if sr.NoResult < sr.Count && sr.Clicks == 0 && len(sd.NoClicks) < searchTop {
			sd.NoClicks = append(sd.NoClicks, sr)
		}
	}
	return days, all
}
