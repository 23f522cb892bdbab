package server_test

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"omnibus/edge/internal/logging/logtest"
	"omnibus/edge/internal/server"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// plainEdge is server.New with a page handler that counts its calls, and
// its log in a buffer.
func plainEdge(t *testing.T, checks map[string]server.Check) (url string, log *logtest.Buffer, pageHits func() int) {
	t.Helper()
	log = &logtest.Buffer{}
	var mu sync.Mutex
	hits := 0
	srv := server.New(server.Options{
		Pages: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			hits++
			mu.Unlock()
			io.WriteString(w, "page")
		}),
		Checks: checks,
		Logger: slog.New(slog.NewTextHandler(log, nil)),
	})
	// Served by the server's own http.Server, with its limits (MaxHeaderBytes).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	return "http://" + ln.Addr().String(), log, func() int { mu.Lock(); defer mu.Unlock(); return hits }
}

// rawRequest sends one request written by hand (methods and targets Go's
// client will not send) and returns the status line and body.
func rawRequest(t *testing.T, base, head string) (status int, body string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "%s\r\nHost: x\r\nConnection: close\r\n\r\n", head)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res.StatusCode, string(b)
}

// TRACE and CONNECT (and made-up methods) get 405 with Allow and never
// reach the renderer or log a renderer failure.
func TestUnsupportedMethods(t *testing.T) {
	url, log, hits := plainEdge(t, nil)
	for _, head := range []string{"TRACE / HTTP/1.1", "CONNECT example.com:443 HTTP/1.1", "PROPFIND /features HTTP/1.1", "TRACE /api/v1/x HTTP/1.1"} {
		if status, body := rawRequest(t, url, head); status != http.StatusMethodNotAllowed || !strings.Contains(body, "errorDetail") {
			t.Errorf("%s: %d %q", head, status, body)
		}
	}
	if hits() != 0 || strings.Contains(log.String(), "renderer") {
		t.Errorf("page handler called %d times; log: %s", hits(), log.String())
	}
}

// URLs past 8 KB get 414 with a small body and one short access log line
// while the request head fits http.Server's MaxHeaderBytes; past that Go
// itself answers a small 431 (and nothing is logged). Oversized header
// sections get 431. Nothing of it reaches the renderer.
func TestLongURLs(t *testing.T) {
	url, log, hits := plainEdge(t, nil)
	for _, n := range []int{9 << 10, 16 << 10} {
		before := len(log.String())
		status, body := rawRequest(t, url, "GET /"+strings.Repeat("a", n)+"?q=1 HTTP/1.1")
		if status != http.StatusRequestURITooLong || len(body) > 200 {
			t.Errorf("%d-byte URL: %d, %d-byte body", n, status, len(body))
		}
		lines := strings.Split(strings.TrimSpace(log.String()[before:]), "\n")
		if len(lines) != 1 || len(lines[0]) > 1024 || !strings.Contains(lines[0], "status=414") {
			t.Errorf("%d-byte URL: log %d lines, first %d bytes", n, len(lines), len(lines[0]))
		}
	}
	for _, n := range []int{100 << 10, 1000 << 10} {
		before := len(log.String())
		status, body := rawRequest(t, url, "GET /"+strings.Repeat("a", n)+"?q=1 HTTP/1.1")
		if status != http.StatusRequestHeaderFieldsTooLarge || len(body) > 200 {
			t.Errorf("%d-byte URL: %d, %d-byte body", n, status, len(body))
		}
		if len(log.String())-before > 1024 {
			t.Errorf("%d-byte URL: %d bytes logged", n, len(log.String())-before)
		}
	}
	req, _ := http.NewRequest("GET", url+"/features", nil)
	req.Header.Set("X-Big", strings.Repeat("b", 20<<10))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge || len(b) > 200 {
		t.Errorf("20 KB header: %d, %d-byte body", res.StatusCode, len(b))
	}
	if hits() != 0 {
		t.Errorf("page handler called %d times", hits())
	}
	// An ordinary long-ish URL still reaches the page.
	if res, err := http.Get(url + "/features?q=" + strings.Repeat("x", 4<<10)); err != nil || res.StatusCode != 200 {
		t.Errorf("4 KB URL: %v %v", err, res)
	}
}

// The renderer's own endpoints are not reachable through the edge, in any
// spelling.
func TestRendererPathsClosed(t *testing.T) {
	url, _, hits := plainEdge(t, nil)
	for _, p := range []string{"/__renderer/health", "/__RENDERER/health", "//__renderer/health", "/%5F%5Frenderer/health", "/_%5frenderer/health", "/x/../__renderer/health", "/__renderer"} {
		if status, _ := rawRequest(t, url, "GET "+p+" HTTP/1.1"); status != http.StatusNotFound {
			t.Errorf("%s: %d", p, status)
		}
	}
	if hits() != 0 {
		t.Errorf("page handler called %d times", hits())
	}
}

// /readyz names the dependency that is down and nothing else: the driver's
// error (user, database, host:port) goes to the log only. On both
// databases: a closed pool, and a PostgreSQL URL that cannot be reached.
func TestReadyzSaysOnlyWhatIsDown(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		unreachable, err := sql.Open("pgx", "postgres://secretuser:secretpw@127.0.0.1:1/secretdb?connect_timeout=2")
		if err != nil {
			t.Fatal(err)
		}
		defer unreachable.Close()
		url, log, _ := plainEdge(t, map[string]server.Check{
			"database": func(ctx context.Context) error { return db.WithContext(ctx).Exec("SELECT 1").Error },
			"cache":    func(ctx context.Context) error { return unreachable.PingContext(ctx) },
		})
		db.Close()
		res, err := http.Get(url + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		body := string(b)
		if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, `"database":"unavailable"`) || !strings.Contains(body, `"cache":"unavailable"`) {
			t.Fatalf("/readyz: %d %s", res.StatusCode, body)
		}
		for _, secret := range []string{"secretuser", "secretdb", "127.0.0.1:1", "closed", "sql:"} {
			if strings.Contains(body, secret) {
				t.Errorf("/readyz tells %q: %s", secret, body)
			}
		}
		if !strings.Contains(log.String(), "secretuser") || !strings.Contains(log.String(), "check=database") {
			t.Errorf("details missing from the log: %s", log.String())
		}
	})
}
