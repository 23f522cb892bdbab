package analytics

import (
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
)

// campaignOf reads the tags as url.ParseQuery would (the first value of each
// key, unescaped, a pair that does not unescape dropped), for tagged queries
// of every shape a campaign link or a flood sends.
func TestCampaignOfReadsAsParseQuery(t *testing.T) {
	reference := func(raw string) campaign {
		if !strings.Contains(raw, "utm_") {
			return campaign{}
		}
		q, _ := url.ParseQuery(raw)
		return campaign{Source: normalise(q.Get("utm_source")), Medium: normalise(q.Get("utm_medium")), Campaign: normalise(q.Get("utm_campaign"))}
	}
	cases := []string{
		"",
		"page=2",
		"utm_source=Twitter&utm_medium=social&utm_campaign=Winter-Sale",
		"utm_campaign=spring+2026&utm_source=news%20letter",
		"utm_source=a&utm_source=b",
		"utm_source=%zz&utm_source=second",
		"utm_source=&utm_medium=email",
		"x=1&&utm_campaign=c%2Fd&y",
		"utm_campaign",
		"utm_campaign=a=b",
		"utm_source=a;b&utm_source=c",
	}
	keys := []string{"utm_source", "utm_medium", "utm_campaign", "utm_term", "q", ""}
	values := []string{"", "A", "b c", "x+y", "%41", "%zz", "ä", "=", "a/b", "a;b", strings.Repeat("z", 90)}
	rng := rand.New(rand.NewPCG(30, 30))
	for range 2000 {
		var parts []string
		for range rng.IntN(5) {
			parts = append(parts, keys[rng.IntN(len(keys))]+"="+values[rng.IntN(len(values))])
		}
		cases = append(cases, strings.Join(parts, "&"))
	}
	for _, raw := range cases {
		if got, want := campaignOf(raw), reference(raw); got != want {
			t.Errorf("campaignOf(%q) = %+v, ParseQuery reads %+v", raw, got, want)
		}
	}
}
