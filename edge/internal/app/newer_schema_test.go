package app_test

import (
	"bytes"
	"errors"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/app"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// A database a newer edge migrated stops a production edge at start,
// naming the migration; a development edge starts and warns.
func TestProductionEdgeRefusesANewerSchema(t *testing.T) {
	for engine, open := range map[string]func(t *testing.T) (dbURL, dataDir string){
		"sqlite": func(t *testing.T) (string, string) {
			dir := t.TempDir()
			db, err := storage.OpenSQLite(filepath.Join(dir, "omnibus.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			addFuture(t, db)
			return "", dir
		},
		"postgres": func(t *testing.T) (string, string) {
			db := storagetest.Postgres(t)
			addFuture(t, db)
			return db.DSN, t.TempDir()
		},
	} {
		t.Run(engine, func(t *testing.T) {
			dbURL, dir := open(t)
			cfg := config.DevelopmentDefaults()
			cfg.DatabaseURL, cfg.DataDir, cfg.RendererURL = dbURL, dir, edgetest.StubRenderer(t)

			cfg.Env = config.Production
			_, err := app.New(cfg, app.Deps{Listener: listen(t), NoAssets: true, Logger: slog.New(slog.DiscardHandler)})
			var newer *storage.NewerSchemaError
			if !errors.As(err, &newer) || !strings.Contains(err.Error(), "9999 from_a_newer_edge") {
				t.Fatalf("production: err %v, want the newer schema refused by name", err)
			}

			cfg.Env = config.Development
			var log bytes.Buffer
			a, err := app.New(cfg, app.Deps{Listener: listen(t), NoAssets: true, Logger: slog.New(slog.NewTextHandler(&log, nil))})
			if err != nil {
				t.Fatalf("development: %v", err)
			}
			a.Close()
			if !strings.Contains(log.String(), "NEWER EDGE") {
				t.Errorf("development does not warn:\n%s", log.String())
			}
		})
	}
}

func addFuture(t *testing.T, db *storage.DB) {
	t.Helper()
	if err := db.Exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", 9999, "from_a_newer_edge", time.Now().UTC()).Error; err != nil {
		t.Fatal(err)
	}
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}
