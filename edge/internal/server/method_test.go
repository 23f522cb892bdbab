package server_test

import (
	"net/http"
	"testing"

	"omnibus/edge/internal/edgetest"
)

// Health and the crawler files answer HEAD as well as GET (load balancers
// and crawlers use either), from the edge itself.
func TestHealthMethods(t *testing.T) {
	var rr recordingRenderer
	e := edgetest.Start(t, edgetest.Options{RendererURL: rr.start(t)})
	for _, m := range []string{http.MethodHead, http.MethodGet} {
		for _, p := range []string{"/healthz", "/readyz", "/sitemap.xml", "/robots.txt"} {
			req, _ := http.NewRequest(m, e.URL+p, nil)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") == "text/html" {
				t.Errorf("%s %s: %d %s", m, p, res.StatusCode, res.Header.Get("Content-Type"))
			}
		}
	}
}
