// Package assets serves the renderer's client build (SSR_DIR/build/client):
// the hashed bundles under /assets/ with immutable caching and the public
// files at its root (favicon, images, manifest, service worker).
//
// The folder is walked once at start and kept as an in-memory index, so the
// router can ask Has(path) for every request without touching the disk: a
// page path never costs a stat. The build is immutable while the edge runs
// (a new build means a new deploy and a restart), so the index cannot go
// stale; in dev mode Vite serves its own assets through the renderer.
package assets

import (
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"omnibus/edge/internal/httpx/encoding"
)

// Cache policies.
const (
	// CacheImmutable is for content-hashed files: the name changes with the bytes.
	CacheImmutable = "public, max-age=31536000, immutable"
	// CachePublic is for public files whose names are stable.
	CachePublic = "public, max-age=3600"
	// CacheRevalidate is for the service worker, which browsers must re-check
	// on every visit so a deploy reaches installed apps.
	CacheRevalidate = "no-cache"
)

// file is one servable file and its precompressed siblings.
type file struct {
	path    string // on disk
	size    int64
	modTime time.Time
	br, gz  string // sibling paths on disk, "" when absent
	brSize  int64
	gzSize  int64
}

// Handler serves the files found at start.
type Handler struct {
	files map[string]*file // by URL path ("/assets/app-abc.js", "/favicon.ico")
	// folders are the build's top-level folders ("/images/", "/icons/"):
	// every path under one is a file's, present or not (IsStatic).
	folders []string
	// store serves other builds' /assets/ files (set by Publish, perhaps
	// from KeepPublishing's goroutine while requests are served); nil: none.
	store atomic.Pointer[Store]
	// published: this build's files are in the database (Published).
	published atomic.Bool
}

// New indexes dir (SSR_DIR/build/client). A missing dir gives an empty
// handler (every /assets path is then 404), so the edge still starts for a
// renderer in dev mode or behind RENDERER_URL.
func New(dir string) (*Handler, error) {
	h := &Handler{files: map[string]*file{}}
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return h, nil
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasSuffix(p, ".br") || strings.HasSuffix(p, ".gz") {
			return nil // a sibling, picked up below
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		f := &file{path: p, size: info.Size(), modTime: info.ModTime()}
		if n, ok := regularSize(p + ".br"); ok {
			f.br, f.brSize = p+".br", n
		}
		if n, ok := regularSize(p + ".gz"); ok {
			f.gz, f.gzSize = p+".gz", n
		}
		url := "/" + filepath.ToSlash(rel)
		h.files[url] = f
		if i := strings.IndexByte(url[1:], '/'); i > 0 && !slices.Contains(h.folders, url[:i+2]) {
			h.folders = append(h.folders, url[:i+2])
		}
		return nil
	})
	return h, err
}

func regularSize(p string) (int64, bool) {
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return 0, false
	}
	return st.Size(), true
}

// Has reports whether urlPath is a file of the build. Paths under /assets/
// belong to this handler whether or not they exist (see IsAssetPath).
func (h *Handler) Has(urlPath string) bool {
	_, ok := h.files[urlPath]
	return ok
}

// Len is the number of files indexed.
func (h *Handler) Len() int { return len(h.files) }

// IsAssetPath reports whether urlPath is in the hashed-bundle folder, which
// the edge answers itself (a missing one is a plain 404, never a page).
func IsAssetPath(urlPath string) bool { return strings.HasPrefix(urlPath, "/assets/") }

// IsStatic reports whether urlPath names a file rather than a page, present
// in this build or not: it is under one of the build's folders (/assets/,
// /images/, /icons/ ...) or ends in a static file's extension (.png,
// .woff2 ...). A missing one is a plain 404 that no cache may keep
// (notFound), never the not-found page with a page's shared caching: the
// file may be one the next build adds, and a CDN would otherwise keep the
// 404 for it through the rollout.
func (h *Handler) IsStatic(urlPath string) bool {
	if IsAssetPath(urlPath) || h.Has(urlPath) {
		return true
	}
	for _, f := range h.folders {
		if strings.HasPrefix(urlPath, f) {
			return true
		}
	}
	return staticExtensions[strings.ToLower(path.Ext(urlPath))]
}

// staticExtensions are the extensions of files a build may hold; no page
// path has one (sitemap.xml, robots.txt and feeds are routes of their own,
// answered before static files are looked for).
var staticExtensions = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".avif": true,
	".svg": true, ".ico": true, ".css": true, ".js": true, ".mjs": true, ".map": true,
	".woff": true, ".woff2": true, ".ttf": true, ".otf": true, ".webmanifest": true,
}

// ServeHTTP serves the file at r.URL.Path, or 404.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f, ok := h.files[r.URL.Path]
	if !ok || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		if ok {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if st := h.store.Load(); st != nil && IsAssetPath(r.URL.Path) && (r.Method == http.MethodGet || r.Method == http.MethodHead) && st.serve(w, r) {
			return
		}
		notFound(w)
		return
	}
	hdr := w.Header()
	hdr.Set("Cache-Control", cachePolicy(r.URL.Path))
	hdr.Set("X-Content-Type-Options", "nosniff")
	if ct := contentType(f.path); ct != "application/octet-stream" {
		hdr.Set("Content-Type", ct)
	}

	diskPath := f.path
	if f.br != "" || f.gz != "" {
		hdr.Add("Vary", "Accept-Encoding")
		encSize := int64(0)
		switch enc := encoding.Negotiate(r.Header.Get("Accept-Encoding"), f.br != "", f.gz != ""); enc {
		case "br":
			diskPath, encSize = f.br, f.brSize
			hdr.Set("Content-Encoding", "br")
		case "gzip":
			diskPath, encSize = f.gz, f.gzSize
			hdr.Set("Content-Encoding", "gzip")
		}
		if encSize > 0 {
			// ServeContent leaves Content-Length out once Content-Encoding
			// is set, and its byte ranges would be ranges of the compressed
			// file: send the whole file with its length instead.
			hdr.Set("Content-Length", strconv.FormatInt(encSize, 10))
			r = r.Clone(r.Context())
			r.Header.Del("Range")
		}
	}
	fh, err := os.Open(diskPath)
	if err != nil {
		notFound(w)
		return
	}
	defer fh.Close()
	// The ETag names the encoding so a cache never answers a conditional
	// request for one encoding with the bytes of another.
	hdr.Set("ETag", etag(f, hdr.Get("Content-Encoding")))
	// ServeContent handles Range, If-None-Match, HEAD and Content-Length;
	// Content-Type is already set so it does not sniff. The ETag is the one
	// validator (no Last-Modified: a zero time), and Accept-Ranges is not
	// announced: every 40 bytes count on files this small (docs/decisions/0037-lean-static-answers.md).
	http.ServeContent(noRangesAnnounced{w}, r, "", time.Time{}, fh)
}

// noRangesAnnounced drops the Accept-Ranges ServeContent always sets (a
// Range request is still honoured).
type noRangesAnnounced struct{ http.ResponseWriter }

func (w noRangesAnnounced) WriteHeader(status int) {
	delete(w.Header(), "Accept-Ranges")
	w.ResponseWriter.WriteHeader(status)
}

// IsWorker reports whether urlPath is the service worker's script: the
// policy its answer carries governs what the worker may load, so it keeps
// the page's header set, where other files get a file's.
func IsWorker(urlPath string) bool { return urlPath == "/sw.js" }

// notFound is a missing file's 404, which no cache may keep: the file may be
// a build's that is still rolling out.
func notFound(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	http.Error(w, "404 not found", http.StatusNotFound)
}

func cachePolicy(urlPath string) string {
	switch {
	case IsAssetPath(urlPath):
		return CacheImmutable
	case urlPath == "/sw.js" || strings.HasPrefix(urlPath, "/workbox-") || strings.HasPrefix(urlPath, "/registerSW"):
		// The worker and its runtime: re-checked on every visit.
		return CacheRevalidate
	default:
		return CachePublic
	}
}

func etag(f *file, encoding string) string {
	tag := strconv.FormatInt(f.modTime.UnixNano(), 36) + "-" + strconv.FormatInt(f.size, 36)
	if encoding != "" {
		tag += "-" + encoding
	}
	return `"` + tag + `"`
}
