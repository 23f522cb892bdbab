package assets

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"gorm.io/gorm/clause"

	"omnibus/edge/internal/httpx/encoding"
	"omnibus/edge/internal/storage"
)

// KeepBuilds is how many builds' hashed files the database keeps: the one
// rolling out, the one it replaces and one more (a rollback during a
// rollout). Decision 0024.
const KeepBuilds = 3

// refreshEvery bounds how often a request for an unknown /assets/ path may
// re-read the list of stored paths: an attacker's random paths cost at most
// four small queries a second, never one per request.
const refreshEvery = 250 * time.Millisecond

// Store serves, from the shared database, the hashed files of the other
// builds running on it: during a rolling update a page of the next build
// may ask an edge of the previous one for its files, and the reverse. Each
// edge stores its own build's files at start (Publish).
type Store struct {
	db *storage.DB

	mu        sync.Mutex
	known     map[string]bool // paths stored, as last read
	refreshed time.Time
}

type storedAsset struct {
	Path        string
	ContentType string
	Body, Br    []byte
	Gz          []byte
	Seen        int64
}

func (storedAsset) TableName() string { return "build_assets" }

type assetBuild struct {
	ID      string
	Started int64
}

func (assetBuild) TableName() string { return "asset_builds" }

// Publish stores this build's /assets/ files (each with its .br and .gz
// siblings) in db, unless already there, marks them seen by this build,
// prunes the files no build among the last KeepBuilds carries, and makes the
// handler serve other builds' files from db (even when storing its own
// fails: the database may answer again for requests later).
func (h *Handler) Publish(ctx context.Context, db *storage.DB) (build string, err error) {
	if h.store.Load() == nil {
		h.store.Store(&Store{db: db})
	}
	var paths []string
	for p := range h.files {
		if IsAssetPath(p) {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	sum := sha256.Sum256([]byte(strings.Join(paths, "\n")))
	build = hex.EncodeToString(sum[:16])
	now := time.Now().UnixNano()
	tx := db.WithContext(ctx)

	have := map[string]bool{}
	for chunk := range chunks(paths, 200) {
		var got []string
		if err := tx.Model(&storedAsset{}).Where("path IN ?", chunk).Pluck("path", &got).Error; err != nil {
			return build, fmt.Errorf("assets: stored files: %w", err)
		}
		for _, p := range got {
			have[p] = true
		}
	}
	for _, p := range paths {
		if have[p] {
			continue
		}
		f := h.files[p]
		row := storedAsset{Path: p, ContentType: contentType(f.path), Seen: now}
		if row.Body, err = os.ReadFile(f.path); err != nil {
			return build, err
		}
		if f.br != "" {
			if row.Br, err = os.ReadFile(f.br); err != nil {
				return build, err
			}
		}
		if f.gz != "" {
			if row.Gz, err = os.ReadFile(f.gz); err != nil {
				return build, err
			}
		}
		// Another edge of this build may be storing it at the same moment.
		if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error; err != nil {
			return build, fmt.Errorf("assets: store %s: %w", p, err)
		}
	}
	for chunk := range chunks(paths, 200) {
		if err := tx.Model(&storedAsset{}).Where("path IN ?", chunk).Update("seen", now).Error; err != nil {
			return build, err
		}
	}
	if err := tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "id"}}, DoUpdates: clause.AssignmentColumns([]string{"started"})}).
		Create(&assetBuild{ID: build, Started: now}).Error; err != nil {
		return build, err
	}
	// Prune: files not seen since the oldest of the last KeepBuilds builds.
	var starts []int64
	if err := tx.Model(&assetBuild{}).Order("started DESC").Limit(KeepBuilds).Pluck("started", &starts).Error; err != nil {
		return build, err
	}
	if len(starts) == KeepBuilds {
		cutoff := starts[len(starts)-1]
		if err := tx.Where("seen < ?", cutoff).Delete(&storedAsset{}).Error; err != nil {
			return build, err
		}
		if err := tx.Where("started < ?", cutoff).Delete(&assetBuild{}).Error; err != nil {
			return build, err
		}
	}
	h.published.Store(true)
	return build, nil
}

// Published reports whether this build's files are in the database
// (omnibus_assets_published).
func (h *Handler) Published() bool { return h.published.Load() }

// Publishing retries: the first after RetryFirst, each wait twice the last,
// at most RetryMax; each attempt may take PublishTimeout.
const (
	RetryFirst     = time.Second
	RetryMax       = 30 * time.Second
	PublishTimeout = 30 * time.Second
)

// KeepPublishing publishes this build's files now and, when that fails (the
// database blipped at start), keeps trying in one background goroutine,
// with backoff, until they are published or ctx ends (the edge shuts down).
// Until then the other builds' pages miss this build's files on the other
// edges (decision 0024), so the first failure is an error and the success
// that ends it is logged too.
func (h *Handler) KeepPublishing(ctx context.Context, db *storage.DB, log *slog.Logger) {
	attempt := func() error {
		pctx, cancel := context.WithTimeout(ctx, PublishTimeout)
		defer cancel()
		build, err := h.Publish(pctx, db)
		if err == nil {
			log.Info("assets: build published", "build", build)
		}
		return err
	}
	err := attempt()
	if err == nil {
		return
	}
	log.Error("assets: this build's files are not in the database; other builds' pages miss them on other edges until published; retrying", "err", err)
	go func() {
		wait := RetryFirst
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			if err := attempt(); err == nil {
				return
			} else if ctx.Err() == nil {
				log.Warn("assets: publishing this build's files failed again; retrying", "err", err, "next_in", min(2*wait, RetryMax))
			}
			wait = min(2*wait, RetryMax)
		}
	}()
}

// chunks splits s into slices of at most n.
func chunks(s []string, n int) func(func([]string) bool) {
	return func(yield func([]string) bool) {
		for len(s) > 0 {
			k := min(n, len(s))
			if !yield(s[:k]) {
				return
			}
			s = s[k:]
		}
	}
}

// has reports whether p is stored, re-reading the stored paths at most once
// every refreshEvery.
func (s *Store) has(ctx context.Context, p string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.known[p] {
		return true
	}
	if time.Since(s.refreshed) < refreshEvery {
		return false
	}
	s.refreshed = time.Now()
	var paths []string
	if err := s.db.WithContext(ctx).Model(&storedAsset{}).Pluck("path", &paths).Error; err != nil {
		return false
	}
	s.known = make(map[string]bool, len(paths))
	for _, k := range paths {
		s.known[k] = true
	}
	return s.known[p]
}

// serve answers r from the database when another build stored its path;
// false when none did (or the database does not answer).
func (s *Store) serve(w http.ResponseWriter, r *http.Request) bool {
	if !s.has(r.Context(), r.URL.Path) {
		return false
	}
	var a storedAsset
	if err := s.db.WithContext(r.Context()).Where("path = ?", r.URL.Path).Take(&a).Error; err != nil {
		return false
	}
	hdr := w.Header()
	hdr.Set("Cache-Control", CacheImmutable)
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Type", a.ContentType)
	body, enc := a.Body, ""
	if len(a.Br) > 0 || len(a.Gz) > 0 {
		hdr.Add("Vary", "Accept-Encoding")
		switch enc = encoding.Negotiate(r.Header.Get("Accept-Encoding"), len(a.Br) > 0, len(a.Gz) > 0); enc {
		case "br":
			body = a.Br
			hdr.Set("Content-Encoding", "br")
		case "gzip":
			body = a.Gz
			hdr.Set("Content-Encoding", "gzip")
		}
	}
	// The name carries the content's hash: the path is the tag.
	tag := `"` + strings.TrimPrefix(path.Base(a.Path), "/")
	if enc != "" {
		tag += "-" + enc
	}
	hdr.Set("ETag", tag+`"`)
	if inm := r.Header.Get("If-None-Match"); inm != "" && strings.Contains(inm, tag+`"`) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	hdr.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
	return true
}

// contentType is the Content-Type of a file by its name.
func contentType(name string) string {
	if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
		return ct
	}
	if path.Ext(name) == ".webmanifest" {
		return "application/manifest+json"
	}
	return "application/octet-stream"
}
