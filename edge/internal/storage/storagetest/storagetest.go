// Package storagetest gives tests a fresh, migrated database on each engine
// the edge supports, so every storage test runs on SQLite and PostgreSQL.
package storagetest

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"omnibus/edge/internal/storage"
)

// DefaultPostgres is this machine's PostgreSQL (trust auth, database test).
const DefaultPostgres = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// Each runs fn once per engine as subtests "sqlite" and "postgres", each with
// its own empty, migrated database. PostgreSQL comes from TEST_DATABASE_URL,
// else DATABASE_URL, else DefaultPostgres; when it cannot be reached the
// subtest is skipped, except under CI=true, where that is a failure.
func Each(t *testing.T, fn func(t *testing.T, db *storage.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// SQLite returns a migrated database in a temporary file.
func SQLite(t testing.TB) *storage.DB {
	t.Helper()
	db, err := storage.OpenSQLite(filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	bound(t, db)
	return db
}

// bound puts the production pool bounds on db, so every storage test runs
// through them.
func bound(t testing.TB, db *storage.DB) {
	t.Helper()
	if err := db.LimitPool(0, 0); err != nil {
		t.Fatal(err)
	}
}

// PostgresURL is the server tests use.
func PostgresURL() string {
	for _, k := range []string{"TEST_DATABASE_URL", "DATABASE_URL"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return DefaultPostgres
}

// Postgres returns a migrated database in a fresh schema of its own, dropped
// when the test ends, so tests can run in parallel without seeing each other.
func Postgres(t testing.TB) *storage.DB {
	t.Helper()
	db, err := storage.OpenPostgres(EmptyPostgres(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	bound(t, db)
	return db
}

// EmptyPostgres creates a fresh, empty schema (dropped when the test ends)
// and returns the URL that uses it; nothing is migrated yet.
func EmptyPostgres(t testing.TB) string {
	t.Helper()
	base := PostgresURL()
	// The shared database's own schema may have been migrated by another
	// branch's newer edge: this connection only creates and drops schemas.
	admin, err := storage.OpenPostgres(base, storage.AllowNewerSchema(true))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL is required in CI: %v", err)
		}
		t.Skipf("PostgreSQL not reachable at %s: %v", base, err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	if err := admin.Exec("CREATE SCHEMA " + schema).Error; err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return fmt.Sprintf("%s%ssearch_path=%s", base, sep, schema)
}
