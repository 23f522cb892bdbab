package analytics

import (
	"net/url"
	"strings"
)

// Bounds of what one visitor's request can add (nothing an
// outsider sends grows the counts without bound).
const (
	// maxValue caps a normalised utm value.
	maxValue = 40
	// maxHost caps a referring host.
	maxHost = 64
	// Other is the key every campaign and referrer past the day's cap, and
	// every referrer that is not a plain http(s) host, is counted under.
	Other = "other"
	// Direct is the referrer of a landing without a Referer header.
	Direct = "(direct)"
)

// campaign is a landing's utm tags, normalised.
type campaign struct{ Source, Medium, Campaign string }

func (c campaign) empty() bool { return c == campaign{} }

// normalise lower-cases v and keeps the short alphabet a-z 0-9 . _ -
// (space, + and / become -), at most maxValue characters.
func normalise(v string) string {
	if len(v) > 4*maxValue {
		v = v[:4*maxValue]
	}
	var b [maxValue]byte
	n := 0
	for i := 0; i < len(v) && n < maxValue; i++ {
		c := v[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
		case c == ' ', c == '+', c == '/':
			c = '-'
		default:
			continue
		}
		b[n] = c
		n++
	}
	return strings.Trim(string(b[:n]), "-.")
}

// campaignOf reads the utm tags of a raw query (before the edge drops them):
// the first value of each, as url.ParseQuery would give it. It scans the
// query instead of building ParseQuery's map, since a flood of tagged
// requests passes here on the cache-hit path.
func campaignOf(rawQuery string) campaign {
	if !strings.Contains(rawQuery, "utm_") {
		return campaign{}
	}
	var c campaign
	var seen [3]bool
	for rest := rawQuery; rest != ""; {
		var pair string
		pair, rest, _ = strings.Cut(rest, "&")
		if strings.Contains(pair, ";") {
			continue // as ParseQuery: a semicolon is no separator, and drops its pair
		}
		key, value, _ := strings.Cut(pair, "=")
		var i int
		var dst *string
		switch key {
		case "utm_source":
			i, dst = 0, &c.Source
		case "utm_medium":
			i, dst = 1, &c.Medium
		case "utm_campaign":
			i, dst = 2, &c.Campaign
		default:
			continue
		}
		if seen[i] {
			continue
		}
		if strings.Contains(value, "%") {
			v, err := url.QueryUnescape(value)
			if err != nil {
				continue // ParseQuery drops a pair that does not unescape
			}
			value = v
		}
		seen[i] = true
		*dst = normalise(value) // "+" is a space to both: normalise makes either "-"
	}
	return c
}

// refererHost is the host of a Referer (lower case, no port, no "www."),
// Other for anything that is not a plain http(s) URL with a sensible host.
// raw is the host as sent, for the same-site test.
func refererHost(ref string) (host, raw string) {
	rest, ok := strings.CutPrefix(ref, "https://")
	if !ok {
		if rest, ok = strings.CutPrefix(ref, "http://"); !ok {
			return Other, ""
		}
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:] // user:password@ never counts, nor is stored
	}
	if i := strings.LastIndexByte(rest, ':'); i >= 0 {
		rest = rest[:i]
	}
	raw = strings.ToLower(rest)
	host = strings.TrimPrefix(raw, "www.")
	if host == "" || len(host) > maxHost {
		return Other, raw
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return Other, raw
		}
	}
	return host, raw
}

// hostOnly is a Host header's host, lower case, without the port.
func hostOnly(h string) string {
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h[i:], "]") {
		h = h[:i]
	}
	return strings.ToLower(h)
}
