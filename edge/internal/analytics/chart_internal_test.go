package analytics

import (
	"strconv"
	"testing"
)

// The chart's y axis reads as a person expects: five evenly spaced lines
// labelled with whole numbers from 0, the top at or above the busiest day
// (five views once labelled 0, 1, 2, 3, 5 at uneven spacing).
func TestChartTicksAreEvenWholeSteps(t *testing.T) {
	for _, max := range []int64{0, 1, 3, 4, 5, 7, 9, 13, 99, 101, 4_999, 123_456} {
		c := chart(&Report{Max: max, Days: []DayCount{{Day: "2026-11-26", Views: max}}})
		if len(c.Ticks) != 5 {
			t.Fatalf("max %d: %d ticks", max, len(c.Ticks))
		}
		var step int64
		for i, tk := range c.Ticks {
			v, err := strconv.ParseInt(tk.Label, 10, 64)
			if err != nil {
				t.Fatalf("max %d: label %q", max, tk.Label)
			}
			if i == 1 {
				step = v
			}
			if v != step*int64(i) {
				t.Errorf("max %d: tick %d says %d, want %d (labels uneven)", max, i, v, step*int64(i))
			}
			if i > 0 && c.Ticks[i-1].Y-tk.Y != c.Ticks[0].Y-c.Ticks[1].Y {
				t.Errorf("max %d: tick %d not evenly spaced", max, i)
			}
		}
		if top := step * 4; top < max || step < 1 {
			t.Errorf("max %d: top %d below the busiest day", max, top)
		}
		if bar := c.Bars[0]; max > 0 && bar.Y < c.Ticks[4].Y {
			t.Errorf("max %d: bar above the top line", max)
		}
	}
}

// The last day's label ("11-26", drawn from its bar's left edge) fits in the
// chart: it was cut at the right edge on make run. Its width is estimated at
// 0.6 em a character at the chart's font size.
func TestChartLastLabelFits(t *testing.T) {
	days := make([]DayCount, ReportDays)
	for i := range days {
		days[i] = DayCount{Day: "2026-11-26", Views: 1}
	}
	c := chart(&Report{Max: 1, Days: days})
	last := c.Bars[len(c.Bars)-1]
	if last.Label == "" {
		t.Fatal("the last day has no label")
	}
	const fontPx = 11 // page.go's text{font-size:11px}
	if end := last.X + 2 + len(last.Label)*fontPx*6/10; end > c.Width {
		t.Errorf("the last label ends at x=%d, past the chart's width %d", end, c.Width)
	}
}
