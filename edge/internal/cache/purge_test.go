package cache

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage/storagetest"
)

// fill caches the given pages and checks they are hits.
func fill(t *testing.T, h http.Handler, paths ...string) {
	t.Helper()
	for _, p := range paths {
		get(h, p)
		if w := get(h, p); w.Header().Get("X-Cache") != "HIT" {
			t.Fatalf("%s not cached: %q", p, w.Header().Get("X-Cache"))
		}
	}
}

// cached reports whether path is a hit (a miss stores it, as any request would).
func cached(h http.Handler, path string) bool {
	return get(h, path).Header().Get("X-Cache") == "HIT"
}

func TestPurgeLocal(t *testing.T) {
	pages := []string{"/", "/blog", "/blog?page=2", "/blog.data", "/blog/article/a", "/blog/article/b", "/pricing", "/_root.data"}
	for _, tc := range []struct {
		target Target
		n      int
		gone   []string
	}{
		{Target{Path: "/blog"}, 3, []string{"/blog", "/blog?page=2", "/blog.data"}},
		{Target{Path: "/"}, 2, []string{"/", "/_root.data"}},
		{Target{Prefix: "/blog/"}, 2, []string{"/blog/article/a", "/blog/article/b"}},
		{Target{Prefix: "/blog"}, 5, []string{"/blog", "/blog?page=2", "/blog.data", "/blog/article/a", "/blog/article/b"}},
		{Target{All: true}, 8, pages},
	} {
		t.Run(tc.target.String(), func(t *testing.T) {
			c, _ := newTestCache(t, DefaultMaxBytes)
			h := c.Wrap(&renderer{})
			fill(t, h, pages...)
			n, err := c.Purge(tc.target)
			if err != nil || n != tc.n {
				t.Fatalf("Purge = %d, %v; want %d", n, err, tc.n)
			}
			gone := map[string]bool{}
			for _, p := range tc.gone {
				gone[p] = true
			}
			for _, p := range pages {
				if hit := get(h, p).Header().Get("X-Cache") == "HIT"; hit == gone[p] {
					t.Errorf("%s: hit=%v after purging %s", p, hit, tc.target)
				}
			}
		})
	}
}

func purgeRequest(t *testing.T, e *echo.Echo, auth, body string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, PurgePath, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if auth != "" {
		r.Header.Set("Authorization", auth)
	}
	w := httptest.NewRecorder()
	e.ServeHTTP(w, r)
	return w
}

func errorDetail(t *testing.T, w *httptest.ResponseRecorder) string {
	t.Helper()
	var body struct {
		ErrorDetail string `json:"errorDetail"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.ErrorDetail == "" {
		t.Fatalf("want {errorDetail}, got %d %q", w.Code, w.Body.String())
	}
	return body.ErrorDetail
}

func TestPurgeAPI(t *testing.T) {
	c, _ := newTestCache(t, DefaultMaxBytes)
	h := c.Wrap(&renderer{})
	fill(t, h, "/", "/blog", "/blog/article/a")

	t.Run("disabled without a token", func(t *testing.T) {
		e := echo.New()
		c.Register(e, "", ratelimit.Keys{})
		w := purgeRequest(t, e, "Bearer anything", `{"all":true}`)
		if w.Code != http.StatusNotFound {
			t.Fatalf("status %d", w.Code)
		}
		errorDetail(t, w)
	})

	e := echo.New()
	c.Register(e, "s3cret-token", ratelimit.Keys{})
	for name, auth := range map[string]string{"missing": "", "wrong": "Bearer nope", "not bearer": "Basic czNjcmV0LXRva2Vu"} {
		t.Run(name+" token", func(t *testing.T) {
			w := purgeRequest(t, e, auth, `{"all":true}`)
			if w.Code != http.StatusUnauthorized || w.Header().Get("WWW-Authenticate") == "" {
				t.Fatalf("status %d, WWW-Authenticate %q", w.Code, w.Header().Get("WWW-Authenticate"))
			}
			errorDetail(t, w)
		})
	}
	if !cached(h, "/") || !cached(h, "/blog") {
		t.Fatal("an unauthorised purge removed pages")
	}

	for _, body := range []string{`{}`, `{"path":"/a","all":true}`, `{"path":"blog"}`, `not json`, `{"paths":"/x"}`} {
		w := purgeRequest(t, e, "Bearer s3cret-token", body)
		if w.Code != http.StatusBadRequest {
			t.Errorf("%s: status %d", body, w.Code)
		}
		errorDetail(t, w)
	}

	w := purgeRequest(t, e, "Bearer s3cret-token", `{"prefix":"/blog"}`)
	if r := purgeAnswer(t, w); w.Code != http.StatusOK || r.Purged != 2 || r.Broadcast || len(r.Edges) != 1 {
		t.Fatalf("purge: %d %s", w.Code, w.Body.String())
	}
	if !cached(h, "/") || cached(h, "/blog") {
		t.Fatal("prefix purge removed the wrong pages")
	}
}

func TestPurgeCommand(t *testing.T) {
	c, _ := newTestCache(t, DefaultMaxBytes)
	h := c.Wrap(&renderer{})
	fill(t, h, "/", "/blog")
	e := echo.New()
	c.Register(e, "tok", ratelimit.Keys{})
	srv := httptest.NewServer(e)
	defer srv.Close()

	var out, errOut bytes.Buffer
	if code := RunPurgeCommand([]string{"--url", srv.URL, "--path", "/blog"}, ":8080", "tok", &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "purged path /blog: 1 pages") {
		t.Errorf("output %q", out.String())
	}
	if cached(h, "/blog") || !cached(h, "/") {
		t.Fatal("the command did not purge /blog alone")
	}

	errOut.Reset()
	if code := RunPurgeCommand([]string{"--url", srv.URL, "--all"}, ":8080", "wrong", &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "401") {
		t.Errorf("wrong token: exit %d, %q", code, errOut.String())
	}
	if code := RunPurgeCommand([]string{"--url", srv.URL, "--all", "--path", "/x"}, ":8080", "tok", &out, &errOut); code != 2 {
		t.Errorf("two targets: exit %d", code)
	}
	if code := RunPurgeCommand([]string{"--all"}, ":8080", "", &out, &errOut); code != 2 {
		t.Errorf("no token: exit %d", code)
	}
	if localURL(":9090") != "http://127.0.0.1:9090" || localURL("10.0.0.5:80") != "http://10.0.0.5:80" {
		t.Error("localURL")
	}
}

// TestPurgeFansOutOnPostgres runs two cache instances listening on the same
// database: a purge on one removes the page from the other.
func TestPurgeFansOutOnPostgres(t *testing.T) {
	db := storagetest.Postgres(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	a, _ := newTestCache(t, DefaultMaxBytes)
	b, _ := newTestCache(t, DefaultMaxBytes)
	for _, c := range []*Cache{a, b} {
		c.StartFanout(ctx, db)
	}
	ha, hb := a.Wrap(&renderer{}), b.Wrap(&renderer{})
	fill(t, ha, "/", "/blog")
	fill(t, hb, "/", "/blog", "/blog/article/x")

	e := echo.New()
	a.Register(e, "tok", ratelimit.Keys{})
	w := purgeRequest(t, e, "Bearer tok", `{"prefix":"/blog"}`)
	if r := purgeAnswer(t, w); w.Code != http.StatusOK || r.Purged != 1 || !r.Broadcast || len(r.Edges) != 2 || len(r.Missing) != 0 {
		t.Fatalf("purge: %d %s, want applied by both instances", w.Code, w.Body.String())
	}
	// The answer came once the other instance had applied it: no wait here.
	if n, _ := b.Stats(); n != 1 {
		t.Fatalf("the other instance holds %d pages when the purge returns, want 1 (/)", n)
	}
	if !cached(hb, "/") || cached(hb, "/blog") {
		t.Fatal("the other instance purged the wrong pages")
	}
	if n, _ := a.Stats(); n != 1 {
		t.Fatalf("purging instance holds %d pages, want 1", n)
	}

	if _, err := b.Purge(Target{All: true}); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 10*time.Second, func() bool { n, _ := a.Stats(); return n == 0 }, "purge all did not reach the first instance")
}

func TestFanoutIsLocalOnSQLite(t *testing.T) {
	c, _ := newTestCache(t, DefaultMaxBytes)
	c.StartFanout(context.Background(), storagetest.SQLite(t))
	if c.fanout != nil {
		t.Fatal("SQLite has no NOTIFY: purges must stay local")
	}
}

// TestFanoutReconnects cuts an instance's listening connection: it
// reconnects, empties its cache (purges may have been missed meanwhile) and
// hears later purges again.
func TestFanoutReconnects(t *testing.T) {
	db := storagetest.Postgres(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, _ := newTestCache(t, DefaultMaxBytes)
	b, _ := newTestCache(t, DefaultMaxBytes)
	for _, c := range []*Cache{a, b} {
		c.StartFanout(ctx, db)
	}
	hb := b.Wrap(&renderer{})
	fill(t, hb, "/", "/blog")

	// Both listeners share the channel; cut them both.
	var cut int
	if err := db.Raw("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query LIKE ?",
		"LISTEN %"+*b.fanout.channel.Load()+"%").Scan(&cut).Error; err != nil || cut != 2 {
		t.Fatalf("terminated %d listeners (%v), want 2", cut, err)
	}
	waitFor(t, "the cut instance to empty its cache", func() bool { n, _ := b.Stats(); return n == 0 })

	fill(t, hb, "/", "/blog")
	// Purges from the other instance arrive again (its send does not need its
	// own listener; b's listener is the one that was re-established).
	waitFor(t, "a purge after reconnecting", func() bool {
		a.Purge(Target{Path: "/blog"})
		n, _ := b.Stats()
		return n == 1
	})
	if !cached(hb, "/") {
		t.Fatal("purging /blog removed /")
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	poll.Until(t, 15*time.Second, ok, "timed out waiting for %s", what)
}

// purgeAnswer decodes the purge endpoint's answer.
func purgeAnswer(t *testing.T, w *httptest.ResponseRecorder) PurgeResult {
	t.Helper()
	var r PurgeResult
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
		t.Fatalf("purge answer %q: %v", w.Body.String(), err)
	}
	return r
}

// A live edge that does not answer (an older edge, or one stuck) is named:
// the purge waits for it until the deadline, then says which edge did not
// apply it, while the answering edges are listed.
func TestPurgeNamesTheEdgeThatDidNotApplyIt(t *testing.T) {
	db := storagetest.Postgres(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, _ := newTestCache(t, DefaultMaxBytes)
	a.StartFanout(ctx, db)
	// A live edge that never answers: a session listening on the channel
	// under an edge's name.
	silent, err := a.fanout.listen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close(context.Background())
	if _, err := silent.Exec(ctx, "SELECT set_config('application_name', $1, false)", a.fanout.sessionName(*a.fanout.channel.Load())[:len(sessionPrefix)+9]+"0000000000000000 silent-edge"); err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer wcancel()
	ack, err := a.PurgePaths(wctx, []string{"/blog"})
	var late *PurgeNotApplied
	if !errors.As(err, &late) || len(late.Edges) != 1 || late.Edges[0] != "silent-edge" {
		t.Fatalf("err %v, want the silent edge named", err)
	}
	if len(ack.Edges) != 1 || ack.Edges[0].Edge != a.name {
		t.Errorf("edges that applied it: %+v, want this one", ack.Edges)
	}
}

// A publish purges about six pages in one purge; each edge reloads its
// content once for it, not once per page (a reload at 10,000 articles is
// not free).
func TestOnePurgeOfSeveralPagesIsOneOnPurgeCall(t *testing.T) {
	c, _ := newTestCache(t, DefaultMaxBytes)
	var calls [][]Target
	c.OnPurge(func(ts []Target) { calls = append(calls, ts) })
	targets := []Target{{Path: "/blog/article/a"}, {Path: "/blog"}, {Path: "/rss.xml"}, {Prefix: "/help/category/"}}
	if _, err := c.PurgeTargets(context.Background(), targets...); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || len(calls[0]) != len(targets) {
		t.Fatalf("OnPurge called %d times (%v), want once with the %d targets", len(calls), calls, len(targets))
	}
}
