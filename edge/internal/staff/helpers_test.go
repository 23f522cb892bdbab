package staff_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/storage"
)

// startEdge is the whole edge (the production wiring) on db.
func startEdge(t *testing.T, db *storage.DB) *edgetest.Edge {
	t.Helper()
	return edgetest.Start(t, edgetest.Options{DB: db})
}

// call sends a request as a browser of the site would (same origin), with
// the cookies given, and returns the status and the body.
func call(t *testing.T, e *edgetest.Edge, method, path, body string, cookies ...*http.Cookie) (int, string, http.Header) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Origin", e.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for _, c := range cookies {
		if c != nil {
			req.AddCookie(c)
		}
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

// errorDetail is the JSON error's words, or "" when the body is not one.
func errorDetail(body string) string {
	var v struct {
		ErrorDetail string `json:"errorDetail"`
	}
	json.Unmarshal([]byte(body), &v)
	return v.ErrorDetail
}
