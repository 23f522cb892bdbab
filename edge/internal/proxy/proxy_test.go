package proxy_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/proxy"
)

func target(t *testing.T, h http.HandlerFunc) *url.URL {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return u
}

// A renderer that does not start answering within the timeout gets the
// edge's own page: 504, no-store, Retry-After.
func TestSlowRendererTimesOut(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	p := proxy.New(proxy.Options{Target: target(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}), Timeout: 200 * time.Millisecond})
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/features", nil))
	if rec.Code != http.StatusGatewayTimeout || rec.Header().Get("Cache-Control") != "no-store" || rec.Header().Get("Retry-After") != "5" {
		t.Fatalf("%d %v", rec.Code, rec.Header())
	}
}

// The renderer's status, headers and body pass through unchanged, and the
// renderer sees the visitor's host, not its own.
func TestPassThrough(t *testing.T) {
	var gotHost string
	p := proxy.New(proxy.Options{Target: target(t, func(w http.ResponseWriter, r *http.Request) {
		gotHost = r.Host
		w.Header().Set("Cache-Control", "public, max-age=60")
		w.Header().Set("Set-Cookie", "a=b")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, "<h1>Not found</h1>")
	})})
	req := httptest.NewRequest(http.MethodGet, "http://shop.example/nope?x=1", nil)
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotFound || rec.Body.String() != "<h1>Not found</h1>" ||
		rec.Header().Get("Cache-Control") != "public, max-age=60" || rec.Header().Get("Set-Cookie") != "a=b" {
		t.Fatalf("%d %q %v", rec.Code, rec.Body.String(), rec.Header())
	}
	if gotHost != "shop.example" {
		t.Errorf("renderer saw Host %q", gotHost)
	}
}

// A stream cut after the headers is aborted, not completed with an error
// page: the client sees a broken response, never a cacheable whole one.
func TestCutStreamAborts(t *testing.T) {
	p := proxy.New(proxy.Options{Target: target(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!DOCTYPE html><h1>shell</h1>")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the renderer dies mid-stream
	})})
	edge := httptest.NewServer(p)
	defer edge.Close()
	res, err := http.Get(edge.URL + "/features")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err == nil {
		t.Fatalf("a cut stream read as complete: %q", body)
	}
	if !strings.Contains(string(body), "shell") || strings.Contains(string(body), "Back in a moment") {
		t.Errorf("body %q", body)
	}
}
