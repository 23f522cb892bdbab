package cache

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"omnibus/edge/internal/canonical"
	"omnibus/shared"
)

const testRoutes = `{
  "notFound": {"cache": {"fresh": 60, "stale": 60}},
  "routes": [
    {"id": "home", "path": "/", "cache": {"fresh": 300, "stale": 3600}},
    {"id": "blog", "path": "/blog", "cache": {"fresh": 300, "stale": 3600}},
    {"id": "article", "path": "/blog/article/:slug", "cache": {"fresh": 300, "stale": 3600}},
    {"id": "pricing", "path": "/pricing", "cache": {"fresh": 300, "stale": 3600}},
    {"id": "login", "path": "/login", "cache": "private"},
    {"id": "welcome", "path": "/contact-us", "cache": {"fresh": 300, "stale": 3600}, "edgeData": ["merchant"]}
  ]
}`

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// renderer is a stand-in for the page proxy: it counts calls, remembers the
// last request and answers with respond (default: a small HTML document that
// names the path, query and call number).
type renderer struct {
	calls   atomic.Int64
	mu      sync.Mutex
	last    *http.Request
	respond func(w http.ResponseWriter, r *http.Request, n int64)
}

func (f *renderer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := f.calls.Add(1)
	f.mu.Lock()
	f.last = r.Clone(r.Context())
	respond := f.respond
	f.mu.Unlock()
	if respond != nil {
		respond(w, r, n)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Link", "</assets/app.css>; rel=preload; as=style")
	fmt.Fprintf(w, "<!DOCTYPE html><html><body><h1>%s?%s</h1><p>render %d</p>%s</body></html>",
		r.URL.Path, r.URL.RawQuery, n, strings.Repeat("<p>Sell everywhere from one platform.</p>", 50))
}

func (f *renderer) lastRequest() *http.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last
}

func newTestCache(t *testing.T, maxBytes int64) (*Cache, *clock) {
	t.Helper()
	ps := NewPolicies(canonical.New(mustTable(t, testRoutes)))
	clk := &clock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	return New(Options{MaxBytes: maxBytes, Policies: ps, Now: clk.Now, Logger: slog.New(slog.DiscardHandler)}), clk
}

type reqOpt func(*http.Request)

func header(k, v string) reqOpt { return func(r *http.Request) { r.Header.Set(k, v) } }

func do(h http.Handler, method, target string, opts ...reqOpt) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for _, o := range opts {
		o(r)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func get(h http.Handler, target string, opts ...reqOpt) *httptest.ResponseRecorder {
	return do(h, http.MethodGet, target, opts...)
}

func expect(t *testing.T, w *httptest.ResponseRecorder, status int, xcache string) {
	t.Helper()
	if w.Code != status || w.Header().Get("X-Cache") != xcache {
		t.Fatalf("got %d X-Cache %q, want %d %q; body %.200q", w.Code, w.Header().Get("X-Cache"), status, xcache, w.Body.String())
	}
}

func TestMissHitStaleRefreshed(t *testing.T) {
	c, clk := newTestCache(t, DefaultMaxBytes)
	up := &renderer{}
	h := c.Wrap(up)

	w := get(h, "/blog")
	expect(t, w, 200, "MISS")
	if !strings.Contains(w.Body.String(), "render 1") {
		t.Fatalf("first answer is not the render: %q", w.Body.String())
	}
	if cc := w.Header().Get("Cache-Control"); cc != "public, max-age=0, s-maxage=300, stale-while-revalidate=3600" {
		t.Errorf("Cache-Control %q", cc)
	}
	if w.Header().Get("Link") == "" || w.Header().Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("renderer headers not kept: %v", w.Header())
	}
	// The render was asked for the complete document, as an anonymous visitor.
	rr := up.lastRequest()
	if rr.Header.Get(RenderModeHeader) != "complete" || rr.Header.Get("Cookie") != "" || rr.Method != http.MethodGet {
		t.Errorf("render request: %s %v", rr.Method, rr.Header)
	}

	clk.Advance(299 * time.Second)
	w = get(h, "/blog")
	expect(t, w, 200, "HIT")
	if !strings.Contains(w.Body.String(), "render 1") || up.calls.Load() != 1 {
		t.Fatalf("hit rendered again (%d calls)", up.calls.Load())
	}
	if w.Header().Get("Age") != "299" {
		t.Errorf("Age %q", w.Header().Get("Age"))
	}

	clk.Advance(2 * time.Second) // past fresh, within stale-while-revalidate
	w = get(h, "/blog")
	expect(t, w, 200, "STALE")
	if !strings.Contains(w.Body.String(), "render 1") {
		t.Fatalf("stale answer should be the old page at once: %q", w.Body.String())
	}
	c.WaitIdle()
	if up.calls.Load() != 2 {
		t.Fatalf("want one background refresh, renderer called %d times", up.calls.Load())
	}

	w = get(h, "/blog")
	expect(t, w, 200, "HIT")
	if !strings.Contains(w.Body.String(), "render 2") {
		t.Fatalf("refreshed page not served: %q", w.Body.String())
	}
}

func TestPastStaleWindowRendersAgain(t *testing.T) {
	c, clk := newTestCache(t, DefaultMaxBytes)
	up := &renderer{}
	h := c.Wrap(up)
	expect(t, get(h, "/blog"), 200, "MISS")
	clk.Advance(300*time.Second + 3600*time.Second)
	w := get(h, "/blog")
	expect(t, w, 200, "MISS")
	if !strings.Contains(w.Body.String(), "render 2") {
		t.Fatalf("expired page served: %q", w.Body.String())
	}
}

// missTogether sends n GETs of path at once through a new cache whose
// renderer answers with respond only once every request is waiting for a
// render; it returns the cache, the renderer and each request's answer.
func missTogether(t *testing.T, n int, path string, respond func(w http.ResponseWriter, call int64)) (*Cache, *renderer, []*httptest.ResponseRecorder) {
	t.Helper()
	c, _ := newTestCache(t, DefaultMaxBytes)
	var waiting sync.WaitGroup
	waiting.Add(n)
	c.testHookFetch = waiting.Done
	up := &renderer{}
	up.respond = func(w http.ResponseWriter, r *http.Request, call int64) {
		waiting.Wait() // every request has missed and is waiting for a render
		respond(w, call)
	}
	h := c.Wrap(up)
	var wg sync.WaitGroup
	answers := make([]*httptest.ResponseRecorder, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = get(h, path)
		}()
	}
	wg.Wait()
	return c, up, answers
}

func TestConcurrentMissesRenderOnce(t *testing.T) {
	const n = 20
	_, up, answers := missTogether(t, n, "/", func(w http.ResponseWriter, call int64) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html>render %d</html>", call)
	})
	if got := up.calls.Load(); got != 1 {
		t.Fatalf("%d concurrent misses made %d renders, want 1", n, got)
	}
	for i, w := range answers {
		if w.Code != 200 || w.Body.String() != "<html>render 1</html>" {
			t.Fatalf("request %d got %d %q", i, w.Code, w.Body.String())
		}
	}
}

// While the renderer fails (here: its answer breaks off),
// the requests that missed together share the one failed render's answer
// (the edge's 503 page): none of them goes to the failing renderer again,
// and nothing is stored.
func TestConcurrentMissesShareAFailedRender(t *testing.T) {
	for name, fail := range map[string]func(w http.ResponseWriter, call int64){
		"broke off": func(w http.ResponseWriter, _ int64) {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html><body>half a page")
		},
		"aborted": func(w http.ResponseWriter, _ int64) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusOK)
			panic(http.ErrAbortHandler) // what the proxy does when the upstream body breaks
		},
	} {
		t.Run(name, func(t *testing.T) {
			const n = 20
			c, up, answers := missTogether(t, n, "/blog", fail)
			if got := up.calls.Load(); got != 1 {
				t.Fatalf("%d concurrent misses during a failing render made %d render attempts, want 1", n, got)
			}
			for i, w := range answers {
				if h := w.Header(); w.Code != http.StatusServiceUnavailable || h.Get("Retry-After") == "" || h.Get("Cache-Control") != "no-store" {
					t.Fatalf("request %d: %d %v, want the shared 503 (no-store, Retry-After)", i, w.Code, h)
				}
			}
			if e, _ := c.Stats(); e != 0 {
				t.Fatalf("%d entries stored from a failed render", e)
			}
		})
	}
}

func TestNeverStoresErrorsOrCookies(t *testing.T) {
	c, _ := newTestCache(t, DefaultMaxBytes)
	up := &renderer{}
	up.respond = func(w http.ResponseWriter, r *http.Request, n int64) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/blog": // a renderer failure
			w.Header().Set("Retry-After", "5")
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, "<html>back soon</html>")
		case "/pricing": // a page that sets a cookie
			http.SetCookie(w, &http.Cookie{Name: "ab", Value: "b"})
			io.WriteString(w, "<html>pricing</html>")
		case "/":
			w.Header().Set("Cache-Control", "no-store")
			io.WriteString(w, "<html>home</html>")
		case "/blog/article/cut":
			io.WriteString(w, "<html><body>half a page") // broke off
		}
	}
	h := c.Wrap(up)

	w := get(h, "/blog")
	expect(t, w, 503, "MISS")
	if w.Header().Get("Retry-After") != "5" || w.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("5xx headers: %v", w.Header())
	}
	expect(t, get(h, "/blog"), 503, "MISS")
	if up.calls.Load() != 2 {
		t.Fatalf("a 5xx was stored: %d renders for 2 requests", up.calls.Load())
	}

	w = get(h, "/pricing")
	if w.Code != 200 || w.Header().Get("Set-Cookie") == "" || w.Header().Get("X-Cache") != "BYPASS" {
		t.Fatalf("cookie page: %d %v", w.Code, w.Header())
	}
	before := up.calls.Load()
	w = get(h, "/pricing")
	if w.Header().Get("X-Cache") == "HIT" || up.calls.Load() == before {
		t.Fatal("a response that sets a cookie was stored")
	}

	expect(t, get(h, "/"), 200, "BYPASS")
	expect(t, get(h, "/"), 200, "BYPASS")
	// A page that broke off is a failed render: the edge's 503, not kept.
	expect(t, get(h, "/blog/article/cut"), 503, "MISS")
	before = up.calls.Load()
	expect(t, get(h, "/blog/article/cut"), 503, "MISS")
	if up.calls.Load() != before+1 {
		t.Fatal("a page that broke off was stored")
	}
	if n, _ := c.Stats(); n != 0 {
		t.Fatalf("%d entries stored, want none", n)
	}
}

func TestStaleWhenRendererFails(t *testing.T) {
	c, clk := newTestCache(t, DefaultMaxBytes)
	var down atomic.Bool
	up := &renderer{}
	up.respond = func(w http.ResponseWriter, r *http.Request, n int64) {
		if down.Load() {
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html>render %d</html>", n)
	}
	h := c.Wrap(up)
	expect(t, get(h, "/blog"), 200, "MISS")
	down.Store(true)

	clk.Advance(400 * time.Second) // stale: served while the refresh fails
	expect(t, get(h, "/blog"), 200, "STALE")
	c.WaitIdle()
	clk.Advance(10 * 24 * time.Hour) // past the stale window: still better than an error
	w := get(h, "/blog")
	expect(t, w, 200, "STALE")
	if w.Body.String() != "<html>render 1</html>" {
		t.Fatalf("body %q", w.Body.String())
	}
	expect(t, get(h, "/pricing"), 503, "MISS") // never cached: the error

	down.Store(false)
	w = get(h, "/blog")
	expect(t, w, 200, "MISS")
	if !strings.Contains(w.Body.String(), "render") || w.Body.String() == "<html>render 1</html>" {
		t.Fatalf("not re-rendered after recovery: %q", w.Body.String())
	}
}

func TestEncodingsDecodeToSameBytes(t *testing.T) {
	c, _ := newTestCache(t, DefaultMaxBytes)
	up := &renderer{}
	h := c.Wrap(up)
	identity := get(h, "/")
	expect(t, identity, 200, "MISS")
	if identity.Header().Get("Content-Encoding") != "" || identity.Header().Get("Vary") != "Accept-Encoding" {
		t.Fatalf("identity headers: %v", identity.Header())
	}
	want := identity.Body.Bytes()

	for _, tc := range []struct {
		accept, enc string
		decode      func(io.Reader) (io.Reader, error)
	}{
		{"gzip, deflate, br, zstd", "br", func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }},
		{"gzip", "gzip", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		{"br;q=0.5, gzip;q=1", "gzip", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		{"br;q=0, *", "gzip", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		{"*", "br", func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }},
		{"identity", "", func(r io.Reader) (io.Reader, error) { return r, nil }},
	} {
		w := get(h, "/", header("Accept-Encoding", tc.accept))
		expect(t, w, 200, "HIT")
		if got := w.Header().Get("Content-Encoding"); got != tc.enc {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", tc.accept, got, tc.enc)
			continue
		}
		if w.Header().Get("Content-Length") != fmt.Sprint(w.Body.Len()) {
			t.Errorf("%s: Content-Length %s for %d bytes", tc.enc, w.Header().Get("Content-Length"), w.Body.Len())
		}
		r, err := tc.decode(bytes.NewReader(w.Body.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s variant decodes to %d bytes (%v), want the %d identity bytes", tc.enc, len(got), err, len(want))
		}
		if tc.enc != "" && w.Body.Len() >= len(want) {
			t.Errorf("%s variant is not smaller: %d >= %d", tc.enc, w.Body.Len(), len(want))
		}
	}
	if up.calls.Load() != 1 {
		t.Errorf("%d renders for one page", up.calls.Load())
	}

	head := do(h, http.MethodHead, "/", header("Accept-Encoding", "br"))
	expect(t, head, 200, "HIT")
	if head.Body.Len() != 0 || head.Header().Get("Content-Length") == "0" {
		t.Errorf("HEAD: %d body bytes, Content-Length %s", head.Body.Len(), head.Header().Get("Content-Length"))
	}
}

func TestLRUEvictionByBytes(t *testing.T) {
	page := bytes.Repeat([]byte{0xAB}, 10_000)
	up := &renderer{}
	up.respond = func(w http.ResponseWriter, r *http.Request, n int64) {
		w.Header().Set("Content-Type", "application/octet-stream") // not compressed: sizes are exact
		w.Write(page)
	}
	// Room for three such pages (10 000 bytes + overhead each), not four.
	c, _ := newTestCache(t, 3*(10_000+entryOverhead+200))
	h := c.Wrap(up)
	for _, p := range []string{"/blog/article/a", "/blog/article/b", "/blog/article/c"} {
		expect(t, get(h, p), 200, "MISS")
	}
	expect(t, get(h, "/blog/article/a"), 200, "HIT") // a is now the most recently used
	expect(t, get(h, "/blog/article/d"), 200, "MISS")

	entries, size := c.Stats()
	if entries != 3 || size > 3*(10_000+entryOverhead+200) {
		t.Fatalf("%d entries, %d bytes after eviction", entries, size)
	}
	expect(t, get(h, "/blog/article/a"), 200, "HIT")
	expect(t, get(h, "/blog/article/c"), 200, "HIT")
	expect(t, get(h, "/blog/article/d"), 200, "HIT")
	expect(t, get(h, "/blog/article/b"), 200, "MISS") // the least recently used went
}

func TestPurgeDuringRenderIsNotStored(t *testing.T) {
	c, _ := newTestCache(t, DefaultMaxBytes)
	up := &renderer{}
	up.respond = func(w http.ResponseWriter, r *http.Request, n int64) {
		if n == 1 {
			c.Purge(Target{Path: "/blog"}) // the content changed while this rendered
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html>render %d</html>", n)
	}
	h := c.Wrap(up)
	expect(t, get(h, "/blog"), 200, "MISS")
	w := get(h, "/blog")
	expect(t, w, 200, "MISS")
	if w.Body.String() != "<html>render 2</html>" {
		t.Fatalf("page rendered before the purge was kept: %q", w.Body.String())
	}
}

func TestPoliciesFromRouteTable(t *testing.T) {
	ps := NewPolicies(canonical.New(shared.Routes))
	for path, want := range map[string]Policy{
		"/":                          {Fresh: 300 * time.Second, Stale: 86400 * time.Second},
		"/blog/article/launch":       {Fresh: 300 * time.Second, Stale: 86400 * time.Second},
		"/help/category/article/x/":  {Fresh: 300 * time.Second, Stale: 86400 * time.Second},
		"/features.data":             {Fresh: 300 * time.Second, Stale: 86400 * time.Second},
		"/_root.data":                {Fresh: 300 * time.Second, Stale: 86400 * time.Second},
		"/login":                     {Private: true},
		"/register":                  {Private: true},
		"/no/such/page":              {Fresh: 60 * time.Second, Stale: 60 * time.Second},
		"/blog/article/":             {Fresh: 60 * time.Second, Stale: 60 * time.Second},
		"/blog/article/a/extra-part": {Fresh: 60 * time.Second, Stale: 60 * time.Second},
	} {
		got := ps.For(path)
		if got.Private != want.Private || got.Fresh != want.Fresh || got.Stale != want.Stale { // TestCanonicalAddresses covers Query
			t.Errorf("For(%q) = %+v, want %+v", path, got, want)
		}
	}
	if _, err := shared.ParseRouteTable([]byte(`{"notFound":{"cache":{"fresh":1,"stale":1}},"routes":[{"id":"x","path":"/x","cache":"sometimes"}]}`)); err == nil {
		t.Error("an unknown policy must be refused")
	}
}

func Test404CachedUnderNotFoundPolicy(t *testing.T) {
	c, clk := newTestCache(t, DefaultMaxBytes)
	up := &renderer{}
	up.respond = func(w http.ResponseWriter, r *http.Request, n int64) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, "<html>not found %d</html>", n)
	}
	h := c.Wrap(up)
	w := get(h, "/blog/article/missing")
	expect(t, w, 404, "MISS")
	if cc := w.Header().Get("Cache-Control"); cc != "public, max-age=0, s-maxage=60, stale-while-revalidate=60" {
		t.Errorf("404 Cache-Control %q", cc)
	}
	expect(t, get(h, "/blog/article/missing"), 404, "HIT")
	clk.Advance(121 * time.Second)
	expect(t, get(h, "/blog/article/missing"), 404, "MISS")
}

// TestBypassStillStreams: a request the cache does not answer reaches the
// renderer through the cache's writer with flushes intact, so a visitor with
// a session still gets the shell before the rest of the page.
func TestBypassStillStreams(t *testing.T) {
	c, _ := newTestCache(t, DefaultMaxBytes)
	release := make(chan struct{})
	up := &renderer{}
	up.respond = func(w http.ResponseWriter, r *http.Request, n int64) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><body>shell")
		http.NewResponseController(w).Flush()
		<-release
		io.WriteString(w, "rest</body></html>")
	}
	srv := httptest.NewServer(c.Wrap(up))
	defer srv.Close()
	defer close(release)

	// A signed-in visitor's page the edge hands their own data (edgeData).
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/contact-us", nil)
	req.Header.Set(AccountHeader, `{"isLoggedIn":true}`)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.Header.Get("X-Cache") != "BYPASS" {
		t.Fatalf("X-Cache %q", res.Header.Get("X-Cache"))
	}
	buf := make([]byte, len("<html><body>shell"))
	if _, err := io.ReadFull(res.Body, buf); err != nil || string(buf) != "<html><body>shell" {
		t.Fatalf("shell not streamed before the rest: %q %v", buf, err)
	}
}

// A content page carries its content's date as Last-Modified (set in front
// of the renderer by the content store's layer): the stored copy keeps it,
// and a crawler asking If-Modified-Since that day or later gets 304 without
// the body; an older date gets the page.
func TestAStoredPageKeepsItsLastModifiedAndAnswersIfModifiedSince(t *testing.T) {
	c, _ := newTestCache(t, DefaultMaxBytes)
	const day = "Sat, 21 Nov 2026 00:00:00 GMT"
	h := c.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Last-Modified", day)
		(&renderer{}).ServeHTTP(w, r)
	}))
	expect(t, get(h, "/blog/article/x"), 200, "MISS")
	w := get(h, "/blog/article/x")
	expect(t, w, 200, "HIT")
	if got := w.Header().Get("Last-Modified"); got != day {
		t.Fatalf("a stored page's Last-Modified is %q, want %q", got, day)
	}
	w = get(h, "/blog/article/x", header("If-Modified-Since", day))
	if w.Code != http.StatusNotModified || w.Body.Len() != 0 {
		t.Errorf("If-Modified-Since the content's day: %d with %d bytes, want 304 and none", w.Code, w.Body.Len())
	}
	w = get(h, "/blog/article/x", header("If-Modified-Since", "Fri, 20 Nov 2026 00:00:00 GMT"))
	if w.Code != http.StatusOK || w.Body.Len() == 0 {
		t.Errorf("If-Modified-Since the day before: %d, want the page", w.Code)
	}
	// An ETag that does not match decides over a date that would.
	w = get(h, "/blog/article/x", header("If-Modified-Since", day), header("If-None-Match", `"other"`))
	if w.Code != http.StatusOK {
		t.Errorf("a stale If-None-Match with a fresh If-Modified-Since: %d, want the page", w.Code)
	}
}
