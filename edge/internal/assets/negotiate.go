package assets

import (
	"strconv"
	"strings"
)

// Negotiate picks the encoding to send for an Accept-Encoding header:
// "br" or "gzip" when the client accepts it (q > 0) and a precompressed file
// exists, brotli preferred at equal q, else "" (identity). A "*" entry stands
// for any coding not named.
func Negotiate(acceptEncoding string, haveBr, haveGz bool) string {
	q := map[string]float64{}
	star, hasStar := 0.0, false
	for _, part := range strings.Split(acceptEncoding, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		v := 1.0
		for _, p := range strings.Split(params, ";") {
			k, val, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
					v = f
				} else {
					v = 0
				}
			}
		}
		if name == "*" {
			star, hasStar = v, true
			continue
		}
		if name == "x-gzip" {
			name = "gzip"
		}
		q[name] = v
	}
	weight := func(name string) float64 {
		if v, ok := q[name]; ok {
			return v
		}
		if hasStar {
			return star
		}
		return 0
	}
	br, gz := 0.0, 0.0
	if haveBr {
		br = weight("br")
	}
	if haveGz {
		gz = weight("gzip")
	}
	switch {
	case br > 0 && br >= gz:
		return "br"
	case gz > 0:
		return "gzip"
	}
	return ""
}
