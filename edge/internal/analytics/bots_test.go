package analytics

import (
	"testing"

	"omnibus/shared"
)

func TestBotsAsTheRendererSeesThem(t *testing.T) {
	b, err := parseBots(shared.BotsJSON)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ ua, want string }{
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "googlebot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36", "bingbot"},
		{"curl/8.5.0", "other"},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", ""},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1", ""},
		{"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36", ""},
		{"", ""},
	} {
		for range 2 { // the second answer comes from the slot table
			got := ""
			if i := b.crawler(c.ua); i >= 0 {
				got = b.name(i)
			}
			if got != c.want {
				t.Errorf("%q: crawler %q, want %q", c.ua, got, c.want)
			}
		}
	}
}
