// Package edgetest starts a complete edge in-process for integration tests:
// the production wiring (internal/app: server middleware, health, static
// files, seo, page cache, accounts, every API feature) on 127.0.0.1:0, in
// front of a renderer of the test's choosing, with the database of the
// test's choosing.
//
//	e := edgetest.Start(t, edgetest.Options{
//		DB: db, // from storagetest.Each; nil = a fresh SQLite file
//		Config: func(c *config.Config) { c.CacheMaxBytes = 0 },
//	})
//	res, err := http.Get(e.URL + "/features")
//
// Renderer choices: RendererURL (e.g. an httptest.Server playing the
// renderer), RealRenderer (node ssr/server.js with the built app; the test is
// skipped when the build is missing, and fails under CI=true), or neither: a
// stub renderer that answers 200 with a small HTML page naming the path
// (StubRenderer). The edge is shut down gracefully when the test ends.
package edgetest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"omnibus/edge/internal/app"
	"omnibus/edge/internal/billing"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/logging"
	"omnibus/edge/internal/renderer"
	"omnibus/edge/internal/server"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
	"omnibus/shared"
)

// Options choose what the edge runs with. The zero value is a working edge
// with a fresh SQLite database, the stub renderer and production settings.
type Options struct {
	// DB is the database; nil opens a fresh SQLite file for this test.
	DB *storage.DB
	// RendererURL proxies pages to this renderer.
	RendererURL string
	// RealRenderer starts node ssr/server.js (production build) as the
	// edge's supervised child, exactly as main does.
	RealRenderer bool
	// AssetsDir is the client build to serve (default: ssr/build/client
	// when RealRenderer, else none).
	AssetsDir string
	// PublicURL (default: the edge's own URL).
	PublicURL string
	// RendererTimeout is the proxy's per-request timeout (default 30s).
	RendererTimeout time.Duration
	// Now is the page cache's clock (default time.Now).
	Now func() time.Time
	// Config changes settings before the edge is built (the defaults are
	// production's, with the listener, renderer and database above).
	Config func(c *config.Config)
	// Payments makes the payment provider in place of the one the settings
	// choose (app.Deps.Payments).
	Payments func(publicURL string) billing.Provider
	// Setup runs before the edge serves: register extra API handlers on
	// e.Server.API, add middleware with e.Server.Use.
	Setup func(e *Edge)
	// WrapPages is the page handler's outermost layer (app.Deps.WrapPages).
	WrapPages func(http.Handler) http.Handler
}

// Edge is a running edge.
type Edge struct {
	// URL is the edge's origin, http://127.0.0.1:<port>.
	URL string
	// App is the whole edge as main builds it (Cache, Accounts, Mailer, ...).
	App *app.App
	// Server is the edge's server (Echo, API group, page handler).
	Server *server.Server
	// DB is the edge's database.
	DB *storage.DB
	// Renderer is the renderer supervisor (PID() for the real child).
	Renderer *renderer.Supervisor

	rendererLog *tailBuffer

	served   chan error
	shutOnce sync.Once
	shutErr  error
}

// Start starts an edge and stops it when the test ends.
func Start(t testing.TB, opts Options) *Edge {
	t.Helper()
	e := &Edge{DB: opts.DB, served: make(chan error, 1)}
	if e.DB == nil {
		e.DB = storagetest.SQLite(t)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e.URL = "http://" + ln.Addr().String()

	cfg := config.DevelopmentDefaults()
	cfg.Addr = ln.Addr().String()
	cfg.DataDir = t.TempDir()
	cfg.PublicURL = e.URL
	if opts.PublicURL != "" {
		cfg.PublicURL = opts.PublicURL
	}
	if opts.RendererTimeout > 0 {
		cfg.RendererTimeout = opts.RendererTimeout
	}
	cfg.ShutdownTimeout = 10 * time.Second
	// No warm-up unless a test asks (Config: c.CacheWarm = true): tests
	// count renders and expect a first visit to miss.
	cfg.CacheWarm = false
	// The edge's logger as main makes it (batched, text), writing nowhere.
	logOut := logging.NewBuffer(io.Discard, 64<<10, 250*time.Millisecond)
	t.Cleanup(func() { logOut.Close() }) // after the edge's own cleanup (LIFO)
	deps := app.Deps{DB: e.DB, Listener: ln, AssetsDir: opts.AssetsDir, Now: opts.Now, Payments: opts.Payments, WrapPages: opts.WrapPages,
		Logger: logging.New(logOut, "text", slog.LevelInfo)}
	var out *tailBuffer
	switch {
	case opts.RendererURL != "":
		cfg.RendererURL = opts.RendererURL
	case opts.RealRenderer:
		cfg.SSRDir = SSRDir(t)
		cfg.RendererPort = FreePort(t)
		cfg.RendererMetricsPort = FreePort(t) // used only when a test sets MetricsAddr
		out = &tailBuffer{max: 64 << 10}
		e.rendererLog = out
		deps.RendererOutput = out
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("renderer output (tail):\n%s", out.String())
			}
		})
	default:
		cfg.RendererURL = StubRenderer(t)
	}
	deps.NoAssets = opts.AssetsDir == "" && !opts.RealRenderer
	if opts.Config != nil {
		opts.Config(&cfg)
	}

	a, err := app.New(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	e.App, e.Server, e.Renderer = a, a.Server, a.Renderer
	if opts.Setup != nil {
		opts.Setup(e)
	}
	go func() { e.served <- a.Serve() }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		e.Shutdown(ctx)
		a.Close()
	})

	if opts.RealRenderer {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		if err := e.Renderer.WaitReady(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// Shutdown drains the edge as SIGTERM does (the renderer keeps running
// until the test ends). It returns the server's result once it has stopped.
func (e *Edge) Shutdown(ctx context.Context) error {
	e.shutOnce.Do(func() {
		e.shutErr = e.Server.Shutdown(ctx)
		if err := <-e.served; err != nil && e.shutErr == nil {
			e.shutErr = err
		}
	})
	return e.shutErr
}

// RendererLog is the tail of the real renderer's output (its JSON log lines);
// empty for other renderers.
func (e *Edge) RendererLog() string {
	if e.rendererLog == nil {
		return ""
	}
	return e.rendererLog.String()
}

// SSRDir is the renderer's folder (ssr/ of this repository) when its
// production build exists. Otherwise the test is skipped, or fails under
// CI=true, where the build is part of the run.
func SSRDir(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "ssr")
	for _, need := range []string{"server.js", "build/server/index.js", "build/client"} {
		if _, err := os.Stat(filepath.Join(dir, need)); err != nil {
			msg := fmt.Sprintf("renderer build missing (%s); run `npm run build -w ssr` from the repository root", need)
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	return dir
}

// FreePort is a loopback TCP port nobody listens on right now.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// StubRenderer starts a renderer stand-in that answers every path with 200
// and `<!DOCTYPE html><h1>Page PATH</h1>`, and returns its URL.
func StubRenderer(t testing.TB) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!DOCTYPE html><html lang=\"en-US\"><title>Page %[1]s</title><h1>Page %[1]s</h1></html>", r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// ChromeUA is a desktop Chrome User-Agent: the renderer streams to it
// (isbot says no). Go's default User-Agent counts as a crawler.
const ChromeUA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"

// Get requests path with a browser User-Agent (and the headers of hdr, if
// given) and returns the response with its whole body read. A request that
// names its own Accept-Encoding gets the body as it was sent.
func (e *Edge) Get(t testing.TB, path string, hdr ...http.Header) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("User-Agent", ChromeUA)
	for _, h := range hdr {
		for k, v := range h {
			req.Header[k] = v
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(body)
}

// CachedPaths are the route table's pages the page cache keeps (a "cache"
// object, no parameter in the path).
func CachedPaths(t testing.TB) []string {
	t.Helper()
	var paths []string
	for _, r := range shared.Routes.Routes {
		if !r.Cache.Private && !r.HasParam() {
			paths = append(paths, r.Path)
		}
	}
	if len(paths) < 5 {
		t.Fatalf("only %d cached routes: %v", len(paths), paths)
	}
	return paths
}

// Scrape is the value of the unlabelled series name in the Prometheus
// exposition at url (an edge's MetricsURL), or "" when it is not there.
func Scrape(t testing.TB, url, name string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			return v
		}
	}
	return ""
}

// tailBuffer keeps the last max bytes written (the renderer's log).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   bytes.Buffer
}

func (w *tailBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if over := w.b.Len() - w.max; over > 0 {
		w.b.Next(over)
	}
	return len(p), nil
}

func (w *tailBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
