package assets_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"omnibus/edge/internal/assets"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// hashedName matches a bundle's name with its content hash: name-HASH.ext.
var hashedName = regexp.MustCompile(`^(.+-[A-Za-z0-9_-]{8})(\.[a-z]+)$`)

// nextBuild copies the client build at dir as the next release would be:
// every hashed file under assets/ renamed (its hash changed), the references
// to it rewritten in every file, the .br and .gz siblings compressed anew.
func nextBuild(t *testing.T, dir string) string {
	t.Helper()
	out := t.TempDir()
	renames := map[string]string{}
	entries, err := os.ReadDir(filepath.Join(dir, "assets"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if m := hashedName.FindStringSubmatch(e.Name()); m != nil {
			renames[e.Name()] = m[1] + "N" + m[2]
		}
	}
	var pairs []string
	for from, to := range renames {
		pairs = append(pairs, from, to)
	}
	rewrite := strings.NewReplacer(pairs...)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".br") || strings.HasSuffix(p, ".gz") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		hadBr, hadGz := exists(p+".br"), exists(p+".gz")
		if to, ok := renames[filepath.Base(rel)]; ok {
			rel = filepath.Join(filepath.Dir(rel), to)
		}
		b = []byte(rewrite.Replace(string(b)))
		write(t, filepath.Join(out, rel), b)
		if hadBr {
			var c bytes.Buffer
			w := brotli.NewWriterLevel(&c, 5)
			w.Write(b)
			w.Close()
			write(t, filepath.Join(out, rel+".br"), c.Bytes())
		}
		if hadGz {
			var c bytes.Buffer
			w := gzip.NewWriter(&c)
			w.Write(b)
			w.Close()
			write(t, filepath.Join(out, rel+".gz"), c.Bytes())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(renames) < 10 {
		t.Fatalf("only %d hashed files in %s", len(renames), dir)
	}
	return out
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func write(t *testing.T, p string, b []byte) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// pagesOf plays a build's renderer: its page links every file under assets/
// of that build, as the build's pages together do.
func pagesOf(t *testing.T, dir string) string {
	t.Helper()
	var html strings.Builder
	html.WriteString("<!doctype html><html><head>")
	// Every file, nested ones too (the preview images under assets/og/).
	filepath.WalkDir(filepath.Join(dir, "assets"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".br") || strings.HasSuffix(p, ".gz") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(&html, `<link rel="modulepreload" href="/%s">`, filepath.ToSlash(rel))
		return nil
	})
	html.WriteString("</head><body>page</body></html>")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, html.String())
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

var assetLink = regexp.MustCompile(`"(/assets/[^"]+)"`)

// Two edges of two builds on one database, as in a rolling update: every
// file each build's page links answers 200, with the build's bytes, on both
// edges, whichever the page came from; a file of no build is a 404 no cache
// may keep. Before: the other build's files were 404 (18 of 64 measured),
// without Cache-Control.
func TestTwoBuildsOneDatabase(t *testing.T) {
	prev := filepath.Join(edgetest.SSRDir(t), "build", "client")
	next := nextBuild(t, prev)
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		old := edgetest.Start(t, edgetest.Options{DB: db, AssetsDir: prev, RendererURL: pagesOf(t, prev)})
		neu := edgetest.Start(t, edgetest.Options{DB: db, AssetsDir: next, RendererURL: pagesOf(t, next)})
		fetched, missing := 0, []string{}
		for _, b := range []struct {
			edge *edgetest.Edge
			dir  string
		}{{old, prev}, {neu, next}} {
			_, page := b.edge.Get(t, "/")
			links := assetLink.FindAllStringSubmatch(page, -1)
			if len(links) < 10 {
				t.Fatalf("the page links %d files", len(links))
			}
			for _, l := range links {
				want, err := os.ReadFile(filepath.Join(b.dir, filepath.FromSlash(l[1])))
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range []*edgetest.Edge{old, neu} {
					for _, enc := range []string{"", "br", "gzip"} {
						fetched++
						status, body, cc := fetch(t, e.URL+l[1], enc)
						if status != http.StatusOK {
							missing = append(missing, fmt.Sprintf("%s %s (%s): %d", e.URL, l[1], enc, status))
							continue
						}
						if !bytes.Equal(body, want) || cc != "public, max-age=31536000, immutable" {
							t.Errorf("%s%s (%s): %d bytes, Cache-Control %q; want the build's %d bytes, immutable", e.URL, l[1], enc, len(body), cc, len(want))
						}
					}
				}
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%d of %d fetches missing, want 0: %s", len(missing), fetched, strings.Join(missing[:min(5, len(missing))], "; "))
		}
		for _, e := range []*edgetest.Edge{old, neu} {
			status, _, cc := fetch(t, e.URL+"/assets/nobody-12345678.js", "")
			if status != http.StatusNotFound || cc != "no-store" {
				t.Errorf("a file of no build: %d Cache-Control %q, want 404 no-store", status, cc)
			}
		}
	})
}

// fetch GETs url accepting enc and returns the status, the decoded body and
// Cache-Control.
func fetch(t *testing.T, url, enc string) (int, []byte, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept-Encoding", enc)
	if enc == "" {
		req.Header.Set("Accept-Encoding", "identity")
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var r io.Reader = res.Body
	switch res.Header.Get("Content-Encoding") {
	case "br":
		r = brotli.NewReader(r)
	case "gzip":
		if r, err = gzip.NewReader(r); err != nil {
			t.Fatal(err)
		}
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, b, res.Header.Get("Cache-Control")
}

// The database keeps the files of the last KeepBuilds builds only: a
// fourth build's start prunes what only the first carried; a file every
// build carries (same name, same bytes) is stored once and stays.
func TestStoredBuildsAreBounded(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		var handlers []*assets.Handler
		for i := range assets.KeepBuilds + 1 {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "assets", fmt.Sprintf("own-%08d.js", i)), []byte(fmt.Sprintf("build %d", i)))
			write(t, filepath.Join(dir, "assets", "shared-abcdefgh.js"), []byte("shared"))
			h, err := assets.New(dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := h.Publish(t.Context(), db); err != nil {
				t.Fatal(err)
			}
			handlers = append(handlers, h)
		}
		var n int64
		db.Table("build_assets").Count(&n)
		if n != assets.KeepBuilds+1 {
			t.Errorf("%d files stored, want %d (%d builds' own and the shared one)", n, assets.KeepBuilds+1, assets.KeepBuilds)
		}
		last := handlers[len(handlers)-1]
		for i := range assets.KeepBuilds + 1 {
			rec := httptest.NewRecorder()
			last.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, fmt.Sprintf("/assets/own-%08d.js", i), nil))
			want := http.StatusOK
			if i == 0 {
				want = http.StatusNotFound
			}
			if rec.Code != want {
				t.Errorf("build %d's file from the last build's edge: %d, want %d", i, rec.Code, want)
			}
		}
	})
}

// An edge that starts while the database is cut (a blip between its
// migration and its publishing, in a rollout) starts all the same and
// publishes its build's files once the database answers again, without a
// restart: its omnibus_assets_published goes from 0 to 1 (and its purge
// listener connects), and an edge of the other build,
// which kept its own connection, then serves them. Before: one failed
// attempt, logged, and the other build's edges answered 404 for the new
// build's files for the whole rollout.
func TestPublishRetriedAfterDatabaseCut(t *testing.T) {
	base := storagetest.EmptyPostgres(t)
	oldDir, newDir := t.TempDir(), t.TempDir()
	write(t, filepath.Join(oldDir, "assets", "page-0ldbu1ld.js"), []byte("old build"))
	write(t, filepath.Join(newDir, "assets", "page-n3wbu1ld.js"), []byte("new build"))

	oldDB, err := storage.OpenPostgres(base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { oldDB.Close() })
	old := edgetest.Start(t, edgetest.Options{DB: oldDB, AssetsDir: oldDir})

	cut, via := edgetest.CutPostgres(t, base)
	newDB, err := storage.OpenPostgres(via)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { newDB.Close() })
	if err := newDB.LimitPool(4, 500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	cut.Cut()
	neu := edgetest.Start(t, edgetest.Options{DB: newDB, AssetsDir: newDir,
		Config: func(c *config.Config) { c.MetricsAddr = "127.0.0.1:0" }})
	published := func() string { return edgetest.Scrape(t, neu.App.MetricsURL, "omnibus_assets_published") }
	listening := func() string { return edgetest.Scrape(t, neu.App.MetricsURL, "omnibus_cache_purge_listener_up") }
	if got, up := published(), listening(); got != "0" || up != "0" {
		t.Fatalf("with the database cut: omnibus_assets_published %q, omnibus_cache_purge_listener_up %q; want 0 and 0", got, up)
	}
	if status, _, _ := fetch(t, old.URL+"/assets/page-n3wbu1ld.js", ""); status != http.StatusNotFound {
		t.Fatalf("the new build's file from the old edge before publishing: %d, want 404", status)
	}

	cut.Restore()
	poll.Until(t, 15*time.Second, func() bool { return published() == "1" },
		"the new build's files were never published after the database came back")
	poll.Until(t, 15*time.Second, func() bool { return listening() == "1" }, "the purge listener never connected")
	// The old edge re-reads the stored paths at most every 250 ms.
	poll.Until(t, 5*time.Second, func() bool {
		status, body, _ := fetch(t, old.URL+"/assets/page-n3wbu1ld.js", "")
		return status == http.StatusOK && string(body) == "new build"
	}, "the old edge never served the new build's file")
	if status, body, _ := fetch(t, neu.URL+"/assets/page-0ldbu1ld.js", ""); status != http.StatusOK || string(body) != "old build" {
		t.Errorf("the old build's file from the new edge: %d %q, want 200", status, body)
	}
}
