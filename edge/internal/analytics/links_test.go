package analytics

import (
	"strings"
	"testing"

	"omnibus/shared"
)

// The links file is checked when the edge starts: a target that is not a
// page of the route table, or a malformed name, anchor or tag, stops it.
// (Whether the page renders the anchor: ssr/e2e/campaign-links.spec.ts.)
func TestLinksFile(t *testing.T) {
	ri := indexRoutes(shared.Routes)
	links, err := ParseLinks(shared.CampaignLinksJSON, ri)
	if err != nil || len(links) == 0 {
		t.Fatalf("shared/content/campaign-links.json: %v (%d links)", err, len(links))
	}
	for _, l := range links {
		if strings.Contains(l.Target, "utm_") {
			t.Errorf("%s: target %q carries utm tags into the address bar", l.Name, l.Target)
		}
	}
	utm := `"utm":{"source":"news","medium":"email","campaign":"spring"}`
	for _, bad := range []string{
		`{"links":[{"name":"x","target":"/no-such-page",` + utm + `}]}`,
		`{"links":[{"name":"x","target":"/features.data",` + utm + `}]}`,
		`{"links":[{"name":"x","target":"/features?utm_source=a",` + utm + `}]}`,
		`{"links":[{"name":"x","target":"/features#not an id",` + utm + `}]}`,
		`{"links":[{"name":"X Y","target":"/features",` + utm + `}]}`,
		`{"links":[{"name":"x","target":"/features",` + utm + `},{"name":"x","target":"/",` + utm + `}]}`,
		`{"links":[{"name":"x","target":"/features","utm":{"source":"News","campaign":"spring"}}]}`,
		`{"links":[{"name":"x","target":"/features","utm":{"source":"news"}}]}`,
	} {
		if _, err := ParseLinks([]byte(bad), ri); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	if _, err := ParseLinks([]byte(`{"links":[{"name":"a-1","target":"/blog/article/some-post#intro",`+utm+`}]}`), ri); err != nil {
		t.Errorf("a page of a route with a parameter: %v", err)
	}
}

func TestNormalise(t *testing.T) {
	for in, want := range map[string]string{
		"Black Friday!":             "black-friday",
		"  Spring+2026/Q1 ":         "spring-2026-q1",
		"<script>alert(1)</script>": "scriptalert1-script",
		"ÉTÉ":                       "t",
		strings.Repeat("a", 500):    strings.Repeat("a", maxValue),
		"":                          "",
	} {
		if got := normalise(in); got != want {
			t.Errorf("normalise(%q) = %q, want %q", in, got, want)
		}
	}
	for ref, want := range map[string]string{
		"https://www.Google.com/search?q=x":            "google.com",
		"http://news.example.org:8080/a":               "news.example.org",
		"android-app://com.slack/":                     Other,
		"https://user:pw@evil.example/":                "evil.example",
		"https://" + strings.Repeat("a", 80) + ".com/": Other,
	} {
		if got, _ := refererHost(ref); got != want {
			t.Errorf("refererHost(%q) = %q, want %q", ref, got, want)
		}
	}
}
