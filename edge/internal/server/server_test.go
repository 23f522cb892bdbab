package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/server"
	"omnibus/edge/internal/storage/storagetest"
	"omnibus/shared"
)

// recordingRenderer plays the renderer and keeps the headers of the last request.
type recordingRenderer struct {
	mu   sync.Mutex
	last http.Header
	hits int
}

func (rr *recordingRenderer) start(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rr.mu.Lock()
		rr.last = r.Header.Clone()
		rr.last.Set("Host", r.Host)
		rr.hits++
		rr.mu.Unlock()
		w.Header().Set("X-Request-ID", r.Header.Get("X-Request-ID")) // as a renderer might echo it
		w.Header().Set("Content-Type", "text/html")
		// A page of one visitor's (as a signed-in page is): the cache passes
		// each visitor's own request on, so the test sees what a proxied
		// request carries, not the cache's anonymous render request.
		w.Header().Set("Cache-Control", "private, no-store")
		io.WriteString(w, "<!DOCTYPE html><html><body><h1>renderer page</h1></body></html>")
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func (rr *recordingRenderer) header(name string) string {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	return rr.last.Get(name)
}

func get(t *testing.T, url string, hdr map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("User-Agent", edgetest.ChromeUA)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

// The request id a client sends reaches the renderer and comes back on the
// response; without one, the edge makes one up and uses it on both sides.
func TestRequestIDReachesRenderer(t *testing.T) {
	var rr recordingRenderer
	e := edgetest.Start(t, edgetest.Options{RendererURL: rr.start(t)})

	res := get(t, e.URL+"/features", map[string]string{"X-Request-ID": "trace-42"})
	if got := res.Header.Values("X-Request-ID"); len(got) != 1 || got[0] != "trace-42" {
		t.Errorf("response X-Request-ID %q, want one trace-42", got)
	}
	if got := rr.header("X-Request-ID"); got != "trace-42" {
		t.Errorf("renderer got X-Request-ID %q, want trace-42", got)
	}

	res = get(t, e.URL+"/features", nil)
	id := res.Header.Get("X-Request-ID")
	if len(id) < 16 {
		t.Fatalf("generated X-Request-ID %q", id)
	}
	if got := rr.header("X-Request-ID"); got != id {
		t.Errorf("renderer got X-Request-ID %q, response had %q", got, id)
	}

	// A malformed id (header injection, huge) is replaced.
	res = get(t, e.URL+"/", map[string]string{"X-Request-ID": "bad id<script>"})
	if got := res.Header.Get("X-Request-ID"); got == "bad id<script>" || got == "" {
		t.Errorf("malformed id kept: %q", got)
	}
}

// Behind a trusted proxy (here: loopback), the visitor's address from
// X-Forwarded-For reaches the renderer as X-Real-IP, with the chain, host
// and scheme in X-Forwarded-*.
func TestForwardedHeadersFromTrustedProxy(t *testing.T) {
	var rr recordingRenderer
	e := edgetest.Start(t, edgetest.Options{RendererURL: rr.start(t), PublicURL: "https://omnibus.example"})
	get(t, e.URL+"/contact-us", map[string]string{
		"X-Forwarded-For":   "203.0.113.7",
		"X-Forwarded-Proto": "https",
		"X-Forwarded-Host":  "omnibus.example",
	})
	checks := map[string]string{
		"X-Real-IP":         "203.0.113.7",
		"X-Forwarded-For":   "203.0.113.7, 127.0.0.1",
		"X-Forwarded-Proto": "https",
		"X-Forwarded-Host":  "omnibus.example",
	}
	for h, want := range checks {
		if got := rr.header(h); got != want {
			t.Errorf("renderer got %s %q, want %q", h, got, want)
		}
	}
}

// A visitor connecting from the internet cannot claim another address or
// scheme: forwarding headers from an untrusted peer are replaced.
func TestForwardedHeadersFromUntrustedPeerAreReplaced(t *testing.T) {
	var rr recordingRenderer
	e := edgetest.Start(t, edgetest.Options{RendererURL: rr.start(t), PublicURL: "http://shop.example"})
	req := httptest.NewRequest(http.MethodGet, "/contact-us", nil)
	req.RemoteAddr = "198.51.100.9:5555"
	req.Host = "shop.example"
	req.Header.Set("X-Forwarded-For", "10.0.0.1")
	req.Header.Set("X-Forwarded-Proto", "https")
	req.Header.Set("X-Forwarded-Host", "evil.example")
	rec := httptest.NewRecorder()
	e.Server.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d", rec.Code)
	}
	checks := map[string]string{
		"X-Real-IP":         "198.51.100.9",
		"X-Forwarded-For":   "198.51.100.9",
		"X-Forwarded-Proto": "http",
		"X-Forwarded-Host":  "shop.example",
		"Host":              "shop.example",
	}
	for h, want := range checks {
		if got := rr.header(h); got != want {
			t.Errorf("renderer got %s %q, want %q", h, got, want)
		}
	}
}

// With the renderer down, a page is the edge's own 503 page that nothing
// may cache, and /readyz says the renderer is the problem.
func TestRendererDown(t *testing.T) {
	e := edgetest.Start(t, edgetest.Options{RendererURL: "http://127.0.0.1:" + strconv.Itoa(edgetest.FreePort(t))})
	req, _ := http.NewRequest(http.MethodGet, e.URL+"/features", nil)
	req.Header.Set("User-Agent", edgetest.ChromeUA)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503", res.StatusCode)
	}
	for h, want := range map[string]string{"Retry-After": "5", "Cache-Control": "no-store", "Content-Type": "text/html; charset=utf-8"} {
		if got := res.Header.Get(h); got != want {
			t.Errorf("%s %q, want %q", h, got, want)
		}
	}
	if !strings.Contains(string(body), "<h1>Back in a moment</h1>") {
		t.Errorf("body:\n%s", body)
	}

	if res := get(t, e.URL+"/healthz", nil); res.StatusCode != http.StatusOK {
		t.Errorf("/healthz %d, want 200 while the renderer is down", res.StatusCode)
	}
	status, ready := readyz(t, e.URL)
	if status != http.StatusServiceUnavailable {
		t.Fatalf("/readyz %d, want 503", status)
	}
	if ready.Checks["renderer"] == "ok" || ready.Checks["database"] != "ok" {
		t.Errorf("/readyz checks %v: want renderer failing, database ok", ready.Checks)
	}
	if !strings.Contains(ready.ErrorDetail, "renderer") {
		t.Errorf("errorDetail %q", ready.ErrorDetail)
	}
}

type readiness struct {
	Status      string            `json:"status"`
	ErrorDetail string            `json:"errorDetail"`
	Checks      map[string]string `json:"checks"`
}

func readyz(t *testing.T, base string) (int, readiness) {
	t.Helper()
	res, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var r readiness
	if err := json.NewDecoder(res.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, r
}

// /healthz and /readyz answer 200 when database and renderer answer; a
// database that stops answering is named in /readyz's body, which stays 200:
// pages still serve (ready_test.go cuts a PostgreSQL connection).
func TestHealth(t *testing.T) {
	db := storagetest.SQLite(t)
	e := edgetest.Start(t, edgetest.Options{DB: db})
	if res := get(t, e.URL+"/healthz", nil); res.StatusCode != http.StatusOK {
		t.Fatalf("/healthz %d", res.StatusCode)
	}
	status, r := readyz(t, e.URL)
	if status != http.StatusOK || r.Checks["database"] != "ok" || r.Checks["renderer"] != "ok" {
		t.Fatalf("/readyz %d %+v", status, r)
	}
	db.Close()
	// The pinger notices within a second or two.
	poll.Until(t, 10*time.Second, func() bool {
		status, r := readyz(t, e.URL)
		if status != http.StatusOK || r.Checks["renderer"] != "ok" {
			t.Fatalf("/readyz with the database closed: %d %+v, want 200", status, r)
		}
		return r.Checks["database"] == "unavailable"
	}, "/readyz never named the closed database unavailable")
}

// Unknown API paths answer the API's JSON error shape, not a page.
func TestUnknownAPIPath(t *testing.T) {
	var rr recordingRenderer
	e := edgetest.Start(t, edgetest.Options{RendererURL: rr.start(t)})
	for _, p := range []string{"/api/v1/nope", "/api/v2/anything", "/api/"} {
		res, err := http.Get(e.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		var body struct{ ErrorDetail string }
		json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound || body.ErrorDetail == "" {
			t.Errorf("GET %s: %d %+v, want 404 with errorDetail", p, res.StatusCode, body)
		}
	}
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if rr.hits != 0 {
		t.Errorf("renderer asked %d times for API paths", rr.hits)
	}
}

// API bodies are capped at 16 KB (413 with errorDetail); a route can allow more.
func TestAPIBodyLimit(t *testing.T) {
	e := edgetest.Start(t, edgetest.Options{Setup: func(e *edgetest.Edge) {
		h := func(c echo.Context) error {
			var v map[string]string
			if err := c.Bind(&v); err != nil {
				return err
			}
			return c.JSON(http.StatusOK, map[string]int{"len": len(v["text"])})
		}
		e.Server.API.POST("/small", h)
		e.Server.API.POST("/large", h, server.BodyLimit(64<<10))
	}})
	big := `{"text":"` + strings.Repeat("x", 20<<10) + `"}`
	post := func(path, body string, chunked bool) (int, string) {
		var r io.Reader = strings.NewReader(body)
		if chunked {
			r = io.MultiReader(r) // hides the length: sent chunked
		}
		res, err := http.Post(e.URL+path, "application/json", r)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for _, chunked := range []bool{false, true} {
		if code, body := post("/api/v1/small", big, chunked); code != http.StatusRequestEntityTooLarge || !strings.Contains(body, `"errorDetail"`) {
			t.Errorf("20 KB to a default route (chunked=%v): %d %s, want 413", chunked, code, body)
		}
		if code, body := post("/api/v1/large", big, chunked); code != http.StatusOK {
			t.Errorf("20 KB to a 64 KB route (chunked=%v): %d %s, want 200", chunked, code, body)
		}
	}
	if code, _ := post("/api/v1/small", `{"text":"hi"}`, false); code != http.StatusOK {
		t.Errorf("small body: %d", code)
	}
}

// SIGTERM semantics: once shutdown starts no new connection is accepted,
// but a page already streaming is allowed to finish.
func TestGracefulDrain(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<!DOCTYPE html><h1>first part</h1>\n")
		w.(http.Flusher).Flush()
		close(started)
		<-release
		io.WriteString(w, "<p>last part</p>\n")
	}))
	defer slow.Close()
	// The streamed path (cache off: a cached page's miss waits for the whole document).
	e := edgetest.Start(t, edgetest.Options{RendererURL: slow.URL, Config: func(c *config.Config) { c.CacheMaxBytes = 0 }})

	req, _ := http.NewRequest(http.MethodGet, e.URL+"/features", nil)
	req.Header.Set("User-Agent", edgetest.ChromeUA)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	br := bufio.NewReader(res.Body)
	if line, err := br.ReadString('\n'); err != nil || !strings.Contains(line, "first part") {
		t.Fatalf("first chunk %q %v", line, err)
	}
	<-started

	shut := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		shut <- e.Shutdown(ctx)
	}()
	// Wait until the listener is closed: new connections are refused.
	host := strings.TrimPrefix(e.URL, "http://")
	for {
		c, err := net.Dial("tcp", host)
		if err != nil {
			break
		}
		c.Close()
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case err := <-shut:
		t.Fatalf("shutdown returned (%v) while a request was in flight", err)
	default:
	}
	close(release)
	rest, err := io.ReadAll(br)
	if err != nil || !strings.Contains(string(rest), "last part") {
		t.Fatalf("rest of the stream %q %v", rest, err)
	}
	if err := <-shut; err != nil {
		t.Fatalf("shutdown: %v", err)
	}
}

// Files of the client build are answered by the edge; a missing /assets/
// file is a plain 404 that never reaches the renderer; every other path is
// a page from the renderer.
func TestStaticFilesAndPages(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "assets"), 0o755)
	os.WriteFile(filepath.Join(dir, "assets", "root-abc123.js"), []byte("console.log(1)"), 0o644)
	os.WriteFile(filepath.Join(dir, "sw.js"), []byte("// worker"), 0o644)
	os.MkdirAll(filepath.Join(dir, "images", "blocks"), 0o755)
	os.WriteFile(filepath.Join(dir, "images", "blocks", "hero.png"), []byte("png"), 0o644)
	var rr recordingRenderer
	e := edgetest.Start(t, edgetest.Options{RendererURL: rr.start(t), AssetsDir: dir})

	if res := get(t, e.URL+"/assets/root-abc123.js", nil); res.StatusCode != 200 || res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Errorf("asset: %d %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
	if res := get(t, e.URL+"/sw.js", nil); res.StatusCode != 200 || res.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("/sw.js: %d %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
	if res := get(t, e.URL+"/images/blocks/hero.png", nil); res.StatusCode != 200 || res.Header.Get("Cache-Control") != "public, max-age=3600" {
		t.Errorf("image: %d %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
	// A file the next build may add: a 404 no cache in front may keep (a
	// page's not-found answer is shared for a minute), never the renderer's.
	for _, p := range []string{"/assets/root-000000.js", "/images/blocks/new-hero.png", "/images/new/picture.webp", "/favicon-new.svg", "/fonts/inter.woff2"} {
		if res := get(t, e.URL+p, nil); res.StatusCode != http.StatusNotFound || res.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("missing %s: %d Cache-Control %q, want 404 no-store", p, res.StatusCode, res.Header.Get("Cache-Control"))
		}
	}
	rr.mu.Lock()
	hits := rr.hits
	rr.mu.Unlock()
	if hits != 0 {
		t.Errorf("renderer asked %d times for static paths", hits)
	}
	if res := get(t, e.URL+"/features", nil); res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/html" {
		t.Errorf("page: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if rr.header("User-Agent") != edgetest.ChromeUA {
		t.Errorf("the page did not reach the renderer with the visitor's User-Agent")
	}
}

// Every header only the edge sets (shared/http.json's X-Omnibus-* names:
// the account, the nonce, a refused form's state, a journey page's data) is
// removed from what a visitor sends: forged, none reaches the renderer, on a
// cacheable page or a private one, in any letter case.
func TestEdgeHeadersFromVisitorsNeverReachTheRenderer(t *testing.T) {
	var rr recordingRenderer
	e := edgetest.Start(t, edgetest.Options{RendererURL: rr.start(t)})
	forged := map[string]string{}
	for _, h := range shared.EdgeHeaders {
		forged[strings.ToLower(h)] = "eyJmb3JnZWQiOnRydWV9"
	}
	for _, want := range []string{"X-Omnibus-Account", "X-Omnibus-Merchant", "X-Omnibus-Order", "X-Omnibus-Payment", "X-Omnibus-Form"} {
		if _, ok := forged[strings.ToLower(want)]; !ok {
			t.Errorf("shared.EdgeHeaders lacks %s", want)
		}
	}
	for _, path := range []string{"/features?x=1", "/landing-page?order=1", "/test-payment?session=tm_x", "/choose-plan"} {
		before := rr.hits
		get(t, e.URL+path, forged)
		if rr.hits == before {
			t.Fatalf("%s: the renderer was not asked", path)
		}
		for _, h := range shared.EdgeHeaders {
			if h == shared.HTTP.NonceHeader {
				continue // the edge sets its own nonce on every page request
			}
			if v := rr.header(h); v != "" {
				t.Errorf("%s: a visitor's %s reached the renderer (%q)", path, h, v)
			}
		}
		if v := rr.header(shared.HTTP.NonceHeader); v == "eyJmb3JnZWQiOnRydWV9" {
			t.Errorf("%s: a visitor's nonce reached the renderer", path)
		}
	}
}
