package search

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/ratelimit"
)

// page is the renderer: it answers with the search header it was sent
// (with 429 when it says "limited", as the search route does).
var page = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	b, _ := base64.RawURLEncoding.DecodeString(r.Header.Get(Header))
	if containsStatus(b, StatusLimited) {
		w.WriteHeader(http.StatusTooManyRequests)
	}
	w.Write([]byte(r.Header.Get(Header)))
})

func ask(t *testing.T, h http.Handler, path string) Result {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	b, err := base64.RawURLEncoding.DecodeString(rec.Body.String())
	if err != nil {
		t.Fatalf("%s: header %q: %v", path, rec.Body.String(), err)
	}
	var res Result
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// The search page (and its React Router data request) gets the results of
// its ?q= from the edge; other pages get nothing.
func TestTheSearchPageGetsItsResults(t *testing.T) {
	var counted []string
	s := New(Options{Index: seeded(t), Searched: func(_ *http.Request, q string, n int) { counted = append(counted, fmt.Sprintf("%s:%t", q, n > 0)) }})
	h := s.Pages(page)
	res := ask(t, h, "/search?q="+url.QueryEscape("  REFND "))
	if res.Status != StatusOK || res.Query != "refnd" || len(res.Results) == 0 || res.Results[0].URL != "/help/category/article/returns-cancellations-and-refunds" {
		t.Fatalf("%+v", res)
	}
	if res := ask(t, h, "/search.data?q=zzzqqq"); res.Status != StatusOK || res.Total != 0 {
		t.Errorf("%+v", res)
	}
	if res := ask(t, h, "/search"); res.Status != StatusEmpty {
		t.Errorf("no query: %+v", res)
	}
	if fmt.Sprint(counted) != "[refnd:true zzzqqq:false]" {
		t.Errorf("counted %v", counted)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/help?q=refund", nil))
	if rec.Body.Len() != 0 {
		t.Errorf("another page got %q", rec.Body.String())
	}
}

// One client searching past its limit gets a page that says so, not a
// search; another client is not affected.
func TestSearchesAreLimitedPerClient(t *testing.T) {
	s := New(Options{Index: seeded(t), PageLimiter: ratelimit.New(2, time.Hour)})
	h := s.Pages(page)
	for i := range 2 {
		if res := ask(t, h, fmt.Sprintf("/search?q=refund%d", i)); res.Status != StatusOK {
			t.Fatalf("search %d: %s", i, res.Status)
		}
	}
	if res := ask(t, h, "/search?q=refund"); res.Status != StatusLimited {
		t.Errorf("third search: %s", res.Status)
	}
	// When the renderer cannot draw the refusal, the edge's plain page
	// says the same words, still with 429.
	broken := New(Options{Index: seeded(t), PageLimiter: ratelimit.New(0, time.Hour)}).Pages(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
	}))
	rec := httptest.NewRecorder()
	broken.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/search?q=refund", nil))
	if rec.Code != http.StatusTooManyRequests || !strings.Contains(rec.Body.String(), "You have searched a lot") {
		t.Errorf("with the renderer down, a refusal answered %d %q", rec.Code, rec.Body.String())
	}
	r := httptest.NewRequest(http.MethodGet, "/search?q=refund", nil)
	r.RemoteAddr = "192.0.2.9:1234"
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if b, _ := base64.RawURLEncoding.DecodeString(rec.Body.String()); !json.Valid(b) || string(b) == "" || containsStatus(b, StatusLimited) {
		t.Errorf("another client: %s", b)
	}
}

// Each search of the page is a render: a client gets PageLimitBurst of
// them at once, not the type-ahead API's LimitBurst, so one client cannot
// keep the renderer busy with queries the result cache has never seen.
func TestThePagesSearchesAreLimitedTighterThanTheAPIs(t *testing.T) {
	h := New(Options{Index: seeded(t)}).Pages(page)
	limited := -1
	for i := range LimitBurst {
		if res := ask(t, h, fmt.Sprintf("/search?q=word%d", i)); res.Status == StatusLimited {
			limited = i
			break
		}
	}
	if limited < 0 || limited > PageLimitBurst+1 || PageLimitBurst >= LimitBurst {
		t.Errorf("the page's search %d of %d was the first refused, want about the %dth", limited+1, LimitBurst, PageLimitBurst+1)
	}
}

func containsStatus(b []byte, status string) bool {
	var res Result
	json.Unmarshal(b, &res)
	return res.Status == status
}

// A flood of 100,000 distinct random queries keeps the result cache at its
// ceiling of entries and bytes, and the heap with it.
func TestAFloodOfQueriesKeepsTheCacheBounded(t *testing.T) {
	s := New(Options{Index: seeded(t)})
	r := rand.New(rand.NewPCG(3, 4))
	const letters = "abcdefghijklmnopqrstuvwxyz "
	query := func() string {
		b := make([]byte, 3+r.IntN(40))
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		return string(b)
	}
	var before runtime.MemStats
	for i := range 100_000 {
		s.search(Normalise(query()))
		if i == MaxCacheEntries {
			runtime.GC()
			runtime.ReadMemStats(&before)
		}
	}
	n, bytes := s.CacheSize()
	if n > MaxCacheEntries || bytes > MaxCacheBytes {
		t.Errorf("cache holds %d results of %d bytes; ceiling %d, %d", n, bytes, MaxCacheEntries, MaxCacheBytes)
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > MaxCacheBytes {
		t.Errorf("the heap grew by %d bytes after the cache was full", grew)
	}
}

// A cached result is not answered once the index changed.
func TestACachedResultIsDroppedWhenTheIndexChanges(t *testing.T) {
	ix := seeded(t)
	s := New(Options{Index: ix})
	if c := s.search("zanzibar"); c.res.Total != 0 {
		t.Fatal("already found")
	}
	ix.Upsert(Doc{Type: TypeBlog, Slug: "z", URL: "/blog/article/z", Title: "Zanzibar", Text: "Spice."})
	if c := s.search("zanzibar"); c.res.Total != 1 {
		t.Errorf("the cached answer was served after the index changed")
	}
}

// The results as the visitor types come from the API: the same results as
// JSON, never kept by a cache, and 429 with Retry-After past the limit.
func TestTheTypeAheadAPI(t *testing.T) {
	e := echo.New()
	s := New(Options{Index: seeded(t), Limiter: ratelimit.New(1, time.Hour), Searched: func(*http.Request, string, int) { t.Error("a type-ahead request was counted as a search") }})
	s.Register(e.Group("/api/v1"))
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/search?q=refnd", nil))
	var body struct{ Data Result }
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if len(body.Data.Results) == 0 || body.Data.Results[0].URL != "/help/category/article/returns-cancellations-and-refunds" || rec.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("%+v %v", body.Data, rec.Header())
	}
	rec = httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/search?q=gst", nil))
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" || !json.Valid(rec.Body.Bytes()) {
		t.Errorf("past the limit: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
}
