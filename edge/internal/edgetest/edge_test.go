package edgetest_test

// Integration tests of the whole edge in front of the real renderer
// (node ssr/server.js with the production build). They are skipped when the
// build is missing (`npm run build -w ssr`), except under CI=true.

import (
	"encoding/json"
	stdhtml "html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
)

const googlebotUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"

// featuresHeading is the page's own heading (its words are content in
// shared/content/features-page.json), the first thing of the shell.
var featuresHeading = regexp.MustCompile(`<h1[^>]*>[^<]+</h1>`)

// heldRenderer plays a renderer whose page streams: it writes and flushes
// the document's shell with a pending Suspense boundary, then holds the rest
// of the page until the test releases it.
type heldRenderer struct {
	asked   chan struct{}
	release chan struct{}
	once    sync.Once
	titles  []string
}

func newHeldRenderer(t *testing.T) (*heldRenderer, string) {
	h := &heldRenderer{asked: make(chan struct{}), release: make(chan struct{}), titles: []string{"Streamed feature alpha", "Streamed feature beta"}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!DOCTYPE html><html><head><title>Features</title></head><body><h1>Features</h1><!--$?--><template></template><p>Loading</p><!--/$-->"+strings.Repeat("<!-- shell padding -->", 200))
		w.(http.Flusher).Flush()
		h.once.Do(func() { close(h.asked) })
		select {
		case <-h.release:
		case <-r.Context().Done():
			return
		}
		for _, title := range h.titles {
			io.WriteString(w, "<h3>"+title+"</h3>")
		}
		io.WriteString(w, "</body></html>")
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(h.free)
	return h, srv.URL
}

func (h *heldRenderer) free() {
	select {
	case <-h.release:
	default:
		close(h.release)
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

// A browser gets the document shell (doctype, head, the page heading and a
// loading placeholder) while the renderer still works on the rest; the rest
// arrives in a later piece of the same response. The edge, compressing on
// the way, must not buffer anything in between. (The renderer's own pages
// read their data from shared/ and the edge's headers, so a renderer stand-in
// holds the stream here.)
func TestStreamedPagesReachBrowsersUnbuffered(t *testing.T) {
	held, rendererURL := newHeldRenderer(t)
	// The streamed path, as signed-in visitors and uncached pages get it.
	e := edgetest.Start(t, edgetest.Options{RendererURL: rendererURL, Config: noCache})

	res := request(t, e.URL+"/features", edgetest.ChromeUA)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	// Read pieces as they arrive until the shell is complete, while the
	// renderer holds the rest. If anything on the way buffered the stream,
	// no piece would arrive until the rest is released, and this would time out.
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
		t.Fatal("no document shell while the renderer held the rest: the stream is buffered")
	}
	<-held.asked
	if !strings.HasPrefix(first, "<!DOCTYPE html") || !featuresHeading.MatchString(first) {
		t.Fatalf("first pieces are not the document shell:\n%.2000s", first)
	}
	if strings.Contains(first, "</html>") {
		t.Fatal("the whole document arrived in one piece: something buffered the stream")
	}
	for _, title := range held.titles {
		if strings.Contains(first, title) {
			t.Fatalf("%q arrived before the renderer sent it", title)
		}
	}

	held.free()
	rest, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, title := range held.titles {
		if !strings.Contains(string(rest), title) {
			t.Errorf("the streamed rest of the page lacks %q", title)
		}
	}
	if !strings.Contains(string(rest), "</html>") {
		t.Error("the stream did not finish the document")
	}
}

// A crawler gets the whole /features document in one go: the platform's
// feature list (shared/content/features.json) is rendered in place, with no
// pending Suspense boundary left to stream.
func TestFeaturesPageIsCompleteForCrawlers(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "content", "features.json"))
	if err != nil {
		t.Fatal(err)
	}
	var content struct {
		Features []struct{ Title string } `json:"features"`
	}
	if err := json.Unmarshal(raw, &content); err != nil || len(content.Features) == 0 {
		t.Fatalf("features.json: %v (%d features)", err, len(content.Features))
	}
	e := edgetest.Start(t, edgetest.Options{RealRenderer: true})

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
	for _, f := range content.Features {
		// A grid item's title: <h3>, its words inside the item's link.
		if !regexp.MustCompile(`<h3[^>]*>(?:<a [^>]*>)?` + regexp.QuoteMeta(stdhtml.EscapeString(f.Title)) + `(?:</a>)?</h3>`).MatchString(html) {
			t.Errorf("feature %q is not rendered in the list", f.Title)
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
	poll.Until(t, 60*time.Second, func() bool {
		res, err := http.Get(e.URL + "/readyz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == 200 && e.Renderer.PID() != pid && e.Renderer.PID() != 0 && e.Renderer.Starts() > starts
	}, "renderer did not come back")
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
