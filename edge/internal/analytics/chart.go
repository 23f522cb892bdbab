package analytics

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"omnibus/shared"
)

const dayLayout = "2006-01-02"

// rangeOf reads the page's ?from=&to= (UTC days). Without them, or when
// they make no sense (not days, from after to, to after today, older than
// what is kept), it is the last ReportDays days, with a note saying why.
func (t *Tracker) rangeOf(q url.Values) (from, to time.Time, note string) {
	from, to = t.DefaultRange()
	fs, ts := q.Get("from"), q.Get("to")
	if fs == "" && ts == "" {
		return from, to, ""
	}
	today := t.Today()
	f, ferr := time.Parse(dayLayout, fs)
	e, terr := time.Parse(dayLayout, ts)
	switch {
	case ferr != nil || terr != nil:
		return from, to, "Those dates could not be read (YYYY-MM-DD); showing the last 30 days."
	case f.After(e):
		return from, to, "The first day was after the last; showing the last 30 days."
	case e.After(today):
		e = today
	}
	if oldest := today.AddDate(0, 0, -Retention); f.Before(oldest) {
		f = oldest
		note = fmt.Sprintf("Counts are kept for %d days; the range starts at %s.", Retention, f.Format(dayLayout))
	}
	if f.After(e) {
		return from, to, "That range has no counts kept; showing the last 30 days."
	}
	return f, e, note
}

// preset is a link to a common range.
type preset struct {
	Label, Query string
	Current      bool
}

func (t *Tracker) presets(rep *Report) []preset {
	today := t.Today()
	var out []preset
	for _, d := range []int{7, 30, 90, 365} {
		f := today.AddDate(0, 0, -(d - 1)).Format(dayLayout)
		to := today.Format(dayLayout)
		out = append(out, preset{Label: fmt.Sprintf("%d days", d), Query: url.Values{"from": {f}, "to": {to}}.Encode(),
			Current: rep.From == f && rep.To == to})
	}
	return out
}

// rangeQuery is the page's range as a query, for the CSV links.
func rangeQuery(rep *Report) string {
	return url.Values{"from": {rep.From}, "to": {rep.To}}.Encode()
}

// themeClass is the class of <html> for the visitor's theme cookie (the
// site's theme buttons set it): dark, light, or "" to follow the system.
func themeClass(r *http.Request) string {
	c, err := r.Cookie(shared.HTTP.ThemeCookie)
	if err != nil {
		return ""
	}
	switch c.Value {
	case "dark", "light":
		return c.Value
	}
	return ""
}

type pageData struct {
	*Report
	Nonce, Theme, RangeNote, Query, Today string
	Chart                                 chartData
	Presets                               []preset
}

// chartData is the views bar chart, laid out here (no script) as HTML:
// bars are heights in per cent of the plot, so the chart takes the width
// of the screen, and its labels are text at the page's own size, as
// readable on a 390 px phone as on a desktop.
type chartData struct {
	Unit  string // "day" or "week": a bar's span
	Bars  []bar
	Ticks []tick // bottom to top
	Top   int64
	// YWidth is the y axis's width in ch: its longest label's.
	YWidth int
}

type bar struct {
	Pct   string // height, per cent of the plot
	Day   string // first day of the bar
	Label string // shown under a few evenly spaced bars
	Views string // formatted
	Last  bool   // the label is right-aligned, so it stays in the chart
}

type tick struct {
	Pct   string // height of the line, per cent of the plot
	Label string
}

// maxBars is the most bars drawn: past it the chart counts weeks.
const maxBars = 92

func chart(rep *Report) chartData {
	c := chartData{Unit: "day"}
	type bucket struct {
		day   string
		views int64
	}
	var buckets []bucket
	size := 1
	if len(rep.Days) > maxBars {
		size, c.Unit = 7, "week"
	}
	for i, d := range rep.Days {
		if i%size == 0 {
			buckets = append(buckets, bucket{day: d.Day})
		}
		buckets[len(buckets)-1].views += d.Views
	}
	var peak int64
	for _, b := range buckets {
		peak = max(peak, b.views)
	}
	step, n := tickStep(peak)
	c.Top = step * int64(n)
	for i := range n + 1 {
		v := step * int64(i)
		c.Ticks = append(c.Ticks, tick{Pct: pct(v, c.Top), Label: Thousands(v)})
		c.YWidth = max(c.YWidth, len(Thousands(v))+1)
	}
	// About six labels whatever the number of bars: each is "11-26" wide,
	// and a phone's plot is about 300 px.
	every := max(1, int(math.Ceil(float64(len(buckets))/6)))
	for i, b := range buckets {
		br := bar{Pct: pct(b.views, c.Top), Day: b.day, Views: Thousands(b.views)}
		if b.views > 0 && br.Pct == "0" {
			br.Pct = "0.5" // a day with a view is never an empty slot
		}
		if i%every == 0 && len(buckets)-1-i >= every || i == len(buckets)-1 {
			br.Label = b.day[5:]
			if len(rep.Days) > 366 || rep.Days[0].Day[:4] != rep.Days[len(rep.Days)-1].Day[:4] {
				br.Label = b.day[2:] // the range spans years: 25-12-01
			}
			br.Last = i == len(buckets)-1
		}
		c.Bars = append(c.Bars, br)
	}
	return c
}

func pct(v, top int64) string {
	if top == 0 {
		return "0"
	}
	return strconv.FormatFloat(float64(v)*100/float64(top), 'f', -1, 64)
}

// tickStep is the chart's step between its lines and how many steps reach
// the top: the smallest step of 1, 2, 2.5 or 5 times a power of ten for
// which at most five steps reach v, so the top is the first round number
// at or above the busiest bar (99,000 → five steps of 20,000 to 100,000,
// not 200,000) and every line is a whole number, evenly spaced.
func tickStep(v int64) (step int64, n int) {
	if v <= 0 {
		return 1, 4
	}
	for p := int64(1); ; p *= 10 {
		for _, m := range []float64{1, 2, 2.5, 5} {
			s := int64(m * float64(p))
			if float64(s) != m*float64(p) {
				continue // 2.5 × 1: not a whole number
			}
			if k := (v + s - 1) / s; k <= 5 {
				return s, max(int(k), 2)
			}
		}
	}
}

// Thousands writes n with comma thousands separators (the site's
// en-US): 99000 → "99,000".
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
