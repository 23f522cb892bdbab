package app_test

import (
	"io"
	"net/http"
	"testing"

	"omnibus/edge/internal/cache"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
)

// Two edges in one process (as the tests run them) with different
// RATE_LIMIT_IPV6_PREFIX each key IPv6 clients by their own network: the
// setting is handed to each edge's limiters, not set on the package, where
// the edge built second would decide for the first too.
func TestEachEdgeKeysClientsByItsOwnIPv6Prefix(t *testing.T) {
	rendererURL := edgetest.StubRenderer(t)
	start := func(prefix int) *edgetest.Edge {
		return edgetest.Start(t, edgetest.Options{RendererURL: rendererURL, Config: func(c *config.Config) { c.RateLimitIPv6Prefix = prefix }})
	}
	wide, narrow := start(48), start(64)

	// The purge endpoint allows 30 requests per client at once (in each
	// edge's memory) and refuses before it looks at the token. Its burst
	// spent from one /64, a request from another /64 of the same /48 is the
	// same client to the /48 edge only.
	purge := func(e *edgetest.Edge, from string) int {
		req, _ := http.NewRequest(http.MethodPost, e.URL+cache.PurgePath, nil)
		req.Header.Set("X-Forwarded-For", from) // believed from loopback
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	for _, e := range []*edgetest.Edge{wide, narrow} {
		for range 30 {
			purge(e, "2001:db8:1:2::1")
		}
	}
	if got := purge(wide, "2001:db8:1:3::1"); got != http.StatusTooManyRequests {
		t.Errorf("the /48 edge answered another /64 of the /48 it had limited %d, want 429", got)
	}
	if got := purge(narrow, "2001:db8:1:3::1"); got == http.StatusTooManyRequests {
		t.Errorf("the /64 edge refused another /64 (429): it keyed by the other edge's prefix")
	}
}
