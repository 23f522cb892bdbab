package analytics

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// The chart's y axis reads as a person expects: evenly spaced lines
// labelled with whole numbers from 0 with thousands separators, the top at
// or above the busiest day but not far past it (a peak of 99,000 once
// drew an axis to 200,000, half the chart empty).
func TestChartTicksAreEvenWholeSteps(t *testing.T) {
	for _, max := range []int64{0, 1, 3, 4, 5, 7, 9, 13, 99, 101, 4_999, 99_000, 123_456, 2_000_001} {
		c := chart(&Report{Max: max, Days: []DayCount{{Day: "2026-11-26", Views: max}}})
		if len(c.Ticks) < 3 || len(c.Ticks) > 6 {
			t.Fatalf("max %d: %d ticks", max, len(c.Ticks))
		}
		var step int64
		for i, tk := range c.Ticks {
			v, err := strconv.ParseInt(strings.ReplaceAll(tk.Label, ",", ""), 10, 64)
			if err != nil || tk.Label != Thousands(v) {
				t.Fatalf("max %d: label %q", max, tk.Label)
			}
			if i == 1 {
				step = v
			}
			if v != step*int64(i) {
				t.Errorf("max %d: tick %d says %d, want %d (labels uneven)", max, i, v, step*int64(i))
			}
			if want := strconv.FormatFloat(float64(i)*100/float64(len(c.Ticks)-1), 'f', -1, 64); !near(tk.Pct, want) {
				t.Errorf("max %d: tick %d at %s%%, want %s%% (not evenly spaced)", max, i, tk.Pct, want)
			}
		}
		top := step * int64(len(c.Ticks)-1)
		if top < max || step < 1 {
			t.Errorf("max %d: top %d below the busiest day", max, top)
		}
		if max >= 10 && float64(top) > 1.5*float64(max) {
			t.Errorf("max %d: the axis runs to %d, more than half again the busiest day", max, top)
		}
		if p, _ := strconv.ParseFloat(c.Bars[0].Pct, 64); p > 100 {
			t.Errorf("max %d: bar above the top line", max)
		}
	}
	if c := chart(&Report{Days: []DayCount{{Day: "2026-11-26", Views: 99_000}}}); c.Ticks[len(c.Ticks)-1].Label != "100,000" {
		t.Errorf("99,000 views: top %q, want 100,000", c.Ticks[len(c.Ticks)-1].Label)
	}
}

func near(a, b string) bool {
	x, _ := strconv.ParseFloat(a, 64)
	y, _ := strconv.ParseFloat(b, 64)
	return x-y < 0.001 && y-x < 0.001
}

// A year's range draws weeks, not 365 bars a pixel wide; about six labels
// under any range, the last one kept inside the chart (right-aligned: it
// was cut at the edge on make run).
func TestChartLabelsAndBuckets(t *testing.T) {
	for _, days := range []int{7, 30, 90, 365} {
		var ds []DayCount
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := range days {
			ds = append(ds, DayCount{Day: start.AddDate(0, 0, i).Format(dayLayout), Views: 1})
		}
		c := chart(&Report{Days: ds})
		if len(c.Bars) > maxBars {
			t.Errorf("%d days: %d bars", days, len(c.Bars))
		}
		labels, prev := 0, -1
		for i, b := range c.Bars {
			if b.Label == "" {
				continue
			}
			// Two labels 11-23 and 11-27 once overlapped at the chart's end.
			if prev >= 0 && i-prev < len(c.Bars)/8 {
				t.Errorf("%d days: labels of bars %d and %d crowd each other", days, prev, i)
			}
			labels++
			prev = i
		}
		if labels < 2 || labels > 8 {
			t.Errorf("%d days: %d labels", days, labels)
		}
		last := c.Bars[len(c.Bars)-1]
		if last.Label == "" || !last.Last {
			t.Errorf("%d days: the last bar has no right-aligned label", days)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 99000: "99,000", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := Thousands(n); got != want {
			t.Errorf("%d: %q, want %q", n, got, want)
		}
	}
}
