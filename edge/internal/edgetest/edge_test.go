package edgetest_test

// Integration tests of the whole edge in front of the real renderer
// (node ssr/server.js with the production build). They are skipped when the
// build is missing (`npm run build -w ssr`), except under CI=true.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
)

const googlebotUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"

// featuresHeading is the page's own heading (its words are content in
// shared/content/features-page.json), the first thing of the shell.
var featuresHeading = regexp.MustCompile(`<h1[^>]*>[^<]+</h1>`)

// heldAPI plays the edge's API for the renderer's loaders: it answers
// /api/v1/platform-features with its own feature list, but, once armed,
// only when the test releases it.
type heldAPI struct {
	armed   atomic.Bool
	asked   chan struct{}
	release chan struct{}
	once    sync.Once
	titles  []string
}

func newHeldAPI(t *testing.T) (*heldAPI, string) {
	a := &heldAPI{asked: make(chan struct{}), release: make(chan struct{}), titles: []string{"Streamed feature alpha", "Streamed feature beta"}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/platform-features" {
			http.NotFound(w, r)
			return
		}
		if a.armed.Load() {
			a.once.Do(func() { close(a.asked) })
			select {
			case <-a.release:
			case <-r.Context().Done():
				return
			}
		}
		var data []map[string]string
		for _, title := range a.titles {
			data = append(data, map[string]string{"icon": "truck", "title": title, "text": title + " text", "color": "sky", "link": "/features#shipping"})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(a.free)
	return a, srv.URL
}

func (a *heldAPI) free() {
	select {
	case <-a.release:
	default:
		close(a.release)
	}
}

func request(t *testing.T, url, ua string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("User-Agent", ua)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// A browser gets the document shell — doctype, head, the page heading and
// the list's loading placeholder — while the feature list is still being
// fetched; the list arrives in a later piece of the same response, once the
// API answers. The edge must not buffer anything in between.
func TestFeaturesPageStreamsToBrowsers(t *testing.T) {
	api, apiURL := newHeldAPI(t)
	// The streamed path, as signed-in visitors and uncached pages get it:
	// with the page cache on, an anonymous /features is one whole document.
	e := edgetest.Start(t, edgetest.Options{RealRenderer: true, APIURL: apiURL, Config: noCache})
	// Warm the renderer up (route modules load on first use), so the
	// measured render is quick: the renderer gives the API 2.5 s before it
	// falls back to the shared content.
	warm := request(t, e.URL+"/features", edgetest.ChromeUA)
	io.Copy(io.Discard, warm.Body)
	api.armed.Store(true)

	res := request(t, e.URL+"/features", edgetest.ChromeUA)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	// Read pieces as they arrive until the shell is complete, while the
	// API is still held. If anything on the way buffered the stream, no
	// piece would arrive until the data is released, and this would time out.
	shell := make(chan string, 1)
	go func() {
		var got []byte
		buf := make([]byte, 32<<10)
		for !featuresHeading.Match(got) || !strings.Contains(string(got), "<!--$?-->") {
			n, err := res.Body.Read(buf)
			got = append(got, buf[:n]...)
			if err != nil {
				break
			}
		}
		shell <- string(got)
	}()
	var first string
	select {
	case first = <-shell:
	case <-time.After(20 * time.Second):
		t.Fatal("no document shell while the deferred data was held: the stream is buffered")
	}
	select {
	case <-api.asked:
	case <-time.After(20 * time.Second):
		t.Fatal("the renderer never asked the API for the deferred data")
	}
	if !strings.HasPrefix(first, "<!DOCTYPE html") || !featuresHeading.MatchString(first) {
		t.Fatalf("first pieces are not the document shell:\n%.2000s", first)
	}
	if strings.Contains(first, "</html>") {
		t.Fatal("the whole document arrived in one piece: something buffered the stream")
	}
	for _, title := range api.titles {
		if strings.Contains(first, title) {
			t.Fatalf("%q arrived before the API answered", title)
		}
	}

	api.free()
	rest, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, title := range api.titles {
		if !strings.Contains(string(rest), title) {
			t.Errorf("the streamed rest of the page lacks %q", title)
		}
	}
	if !strings.Contains(string(rest), "</html>") {
		t.Error("the stream did not finish the document")
	}
}

// A crawler gets the whole document in one go: the feature list is
// rendered in place, with no pending Suspense boundary left to stream.
func TestFeaturesPageIsCompleteForCrawlers(t *testing.T) {
	api, apiURL := newHeldAPI(t)
	api.free()
	e := edgetest.Start(t, edgetest.Options{RealRenderer: true, APIURL: apiURL})

	res := request(t, e.URL+"/features", googlebotUA)
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	html := string(body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	if strings.Contains(html, "<!--$?-->") {
		t.Error("a crawler got a pending Suspense boundary")
	}
	if !featuresHeading.MatchString(html) {
		t.Error("no heading")
	}
	for _, title := range api.titles {
		// A grid item's title: <h3>, its words inside the item's link.
		if !regexp.MustCompile(`<h3[^>]*>(?:<a [^>]*>)?` + regexp.QuoteMeta(title) + `(?:</a>)?</h3>`).MatchString(html) {
			t.Errorf("feature %q is not rendered in the list", title)
		}
	}
}

// Any path outside the route table is the not-found page with status 404,
// server-rendered; a route of the table is 200.
func TestUnknownPathIs404(t *testing.T) {
	e := edgetest.Start(t, edgetest.Options{RealRenderer: true})
	for path, want := range map[string]int{"/no-such-page": 404, "/blog/article/a/b/c": 404, "/features": 200, "/blocks/buttons": 200} {
		res := request(t, e.URL+path, edgetest.ChromeUA)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != want {
			t.Errorf("%s: status %d, want %d", path, res.StatusCode, want)
		}
		if !strings.HasPrefix(string(body), "<!DOCTYPE html") {
			t.Errorf("%s: not a server-rendered document", path)
		}
	}
}

// The real build's hashed files come from the edge, precompressed and
// immutable; a hashed name that does not exist is a 404.
func TestBuiltAssets(t *testing.T) {
	e := edgetest.Start(t, edgetest.Options{RealRenderer: true})
	matches, _ := filepath.Glob(filepath.Join(edgetest.SSRDir(t), "build", "client", "assets", "*.js.br"))
	if len(matches) == 0 {
		t.Fatal("the build has no precompressed scripts")
	}
	name := strings.TrimSuffix(filepath.Base(matches[0]), ".br")
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	for _, enc := range []string{"br", "gzip", ""} {
		req, _ := http.NewRequest(http.MethodGet, e.URL+"/assets/"+name, nil)
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != enc ||
			res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" ||
			!strings.HasPrefix(res.Header.Get("Content-Type"), "text/javascript") {
			t.Errorf("Accept-Encoding %q: %d %v", enc, res.StatusCode, res.Header)
		}
	}
	res := request(t, e.URL+"/assets/missing-0000000.js", edgetest.ChromeUA)
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("missing asset: %d", res.StatusCode)
	}
	if _, err := os.Stat(filepath.Join(edgetest.SSRDir(t), "build", "client", "sw.js")); err == nil {
		if res := request(t, e.URL+"/sw.js", edgetest.ChromeUA); res.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("/sw.js Cache-Control %q", res.Header.Get("Cache-Control"))
		}
	}
}

// When the renderer process dies, the warm standby answers and the
// supervisor starts a new one.
func TestRendererComesBackAfterKill(t *testing.T) {
	e := edgetest.Start(t, edgetest.Options{RealRenderer: true})
	if res := request(t, e.URL+"/", edgetest.ChromeUA); res.StatusCode != 200 {
		t.Fatalf("before: %d", res.StatusCode)
	}
	pid := e.Renderer.PID()
	starts := e.Renderer.Starts()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		res, err := http.Get(e.URL + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 && e.Renderer.PID() != pid && e.Renderer.PID() != 0 && e.Renderer.Starts() > starts {
				break
			}
		}
		if ctx.Err() != nil {
			t.Fatal("renderer did not come back")
		}
		time.Sleep(50 * time.Millisecond)
	}
	res := request(t, e.URL+"/", edgetest.ChromeUA)
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !strings.Contains(string(body), "<!DOCTYPE html") {
		t.Fatalf("after restart: %d", res.StatusCode)
	}
	if n := e.Renderer.Starts(); n != starts+1 {
		t.Errorf("%d starts, want %d", n, starts+1)
	}
}

// noCache turns the page cache off, for tests of the streamed path.
func noCache(c *config.Config) { c.CacheMaxBytes = 0 }
