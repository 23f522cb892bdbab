package canonical_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"omnibus/edge/internal/canonical"
	"omnibus/shared"
)

// React Router's route discovery (/__manifest?paths=…&version=…) keeps the
// parameters its answer depends on: without them every client navigation
// to an undiscovered route became a full page load ("manifest version
// mismatch"), and answers for different paths shared one cache entry.
func TestManifestKeepsItsQuery(t *testing.T) {
	ps := canonical.New(shared.Routes)
	var got string
	h := ps.Canonical(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.URL.RawQuery }))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/__manifest?paths=%2Ffeatures%2C%2Fblog&version=abc123&utm_source=x", nil))
	if got != "paths=%2Ffeatures%2C%2Fblog&version=abc123" {
		t.Fatalf("the renderer saw %q", got)
	}
	// Paths it does not know are dropped from the question.
	got = ""
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/__manifest?paths=%2Fxq7z%2C%2Ffeatures&version=abc123", nil))
	if got != "paths=%2Ffeatures&version=abc123" {
		t.Fatalf("the renderer saw %q", got)
	}
	// With the build's version known, another version is answered as React
	// Router would (reload the document), without the renderer.
	got = "-"
	w := httptest.NewRecorder()
	ps.WithManifestVersion("abc123").Canonical(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.URL.RawQuery })).
		ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/__manifest?paths=%2Ffeatures&version=made-up", nil))
	if got != "-" || w.Code != http.StatusNoContent || w.Header().Get("X-Remix-Reload-Document") != "true" {
		t.Fatalf("a made-up version: %d %v, renderer saw %q", w.Code, w.Header(), got)
	}
}
