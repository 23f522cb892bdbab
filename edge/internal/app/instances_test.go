package app_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"omnibus/edge/internal/app"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/storage/storagetest"
)

// startEdges builds n edges at once, as replicas booting together do, on
// the PostgreSQL database at dbURL, each with its own listener and a stub
// renderer, and serves them until the test ends.
func startEdges(t *testing.T, n int, dbURL string) []*app.App {
	t.Helper()
	rendererURL := edgetest.StubRenderer(t)
	apps := make([]*app.App, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		cfg := config.DevelopmentDefaults()
		cfg.Addr, cfg.DataDir, cfg.DatabaseURL, cfg.RendererURL = ln.Addr().String(), t.TempDir(), dbURL, rendererURL
		cfg.PublicURL = "http://omnibus.test" // one site behind a balancer
		wg.Go(func() {
			<-start
			apps[i], errs[i] = app.New(cfg, app.Deps{Listener: ln, NoAssets: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		})
	}
	close(start)
	wg.Wait()
	for i, a := range apps {
		if errs[i] != nil {
			t.Errorf("edge %d did not start: %v", i, errs[i])
			continue
		}
		go a.Serve()
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			a.Shutdown(ctx)
			a.Close()
		})
	}
	if t.Failed() {
		t.FailNow()
	}
	return apps
}

// Three edges starting together on one fresh, empty PostgreSQL database
// all start (the migrations run once, under the advisory lock), and the
// rate limits they enforce are one limit, not three.
func TestThreeEdgesOnOneEmptyDatabase(t *testing.T) {
	edges := startEdges(t, 3, storagetest.EmptyPostgres(t))

	// The newsletter allows 10 subscriptions per client IP, one more every
	// 6 s. Each edge alone would allow all 18 posts below (6 each); together
	// they allow the burst plus what refilled meanwhile.
	began := time.Now()
	allowed, refused := 0, 0
	for i := range 18 {
		e := edges[i%3]
		req, _ := http.NewRequest(http.MethodPost, e.URL+"/api/v1/news-letter/subscribe",
			strings.NewReader(fmt.Sprintf(`{"emailaddress": "reader%d@example.com"}`, i)))
		req.Header.Set("Content-Type", "application/json")
		req.Host = "omnibus.test" // the balancer keeps the public host (another host is redirected to it)
		req.Header.Set("Origin", "http://omnibus.test")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode == http.StatusTooManyRequests {
			refused++
		} else {
			allowed++
		}
	}
	refilled := int(time.Since(began) / (6 * time.Second))
	if refused == 0 || allowed > 10+refilled {
		t.Fatalf("%d of 18 posts over three edges allowed, %d refused; want one shared limit of 10 (+%d refilled)", allowed, refused, refilled)
	}
}
