package storage_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// reopen connects again to the same database, as a restarted edge does.
func reopen(t *testing.T, db *storage.DB) *storage.DB {
	t.Helper()
	var again *storage.DB
	var err error
	if db.Postgres {
		again, err = storage.OpenPostgres(db.DSN)
	} else {
		again, err = storage.OpenSQLite(strings.SplitN(db.DSN, "?", 2)[0])
	}
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	t.Cleanup(func() { again.Close() })
	return again
}

type applied struct {
	Version   int
	AppliedAt time.Time
}

func appliedMigrations(t *testing.T, db *storage.DB) []applied {
	t.Helper()
	var rows []applied
	if err := db.Table("schema_migrations").Select("version, applied_at").Order("version").Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	return rows
}

// Opening an already migrated database applies nothing again: every
// migration stays recorded once, with its original time.
func TestReopenIsIdempotent(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		before := appliedMigrations(t, db)
		if len(before) == 0 || before[0].Version != 1 {
			t.Fatalf("migrations after open: %+v", before)
		}
		for i := 1; i < len(before); i++ {
			if before[i].Version == before[i-1].Version {
				t.Fatalf("version %d recorded twice", before[i].Version)
			}
		}
		after := appliedMigrations(t, reopen(t, reopen(t, db)))
		if len(after) != len(before) {
			t.Fatalf("%d migrations recorded after reopening, %d before", len(after), len(before))
		}
		for i := range before {
			if after[i].Version != before[i].Version || !after[i].AppliedAt.Equal(before[i].AppliedAt) {
				t.Errorf("migration %d changed on reopen: %+v → %+v", before[i].Version, before[i], after[i])
			}
		}
	})
}

// With no DATABASE_URL, Open creates the data directory and the SQLite file
// in it; the data survives a reopen.
func TestOpenEmbeddedSQLite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "data")
	db, err := storage.Open("", dir)
	if err != nil {
		t.Fatal(err)
	}
	if db.Postgres {
		t.Fatal("Open without a URL chose PostgreSQL")
	}
	if _, err := os.Stat(filepath.Join(dir, "omnibus.db")); err != nil {
		t.Fatalf("no database file: %v", err)
	}
	if err := db.Exec("CREATE TABLE notes (body TEXT)").Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Exec("INSERT INTO notes (body) VALUES ('kept')").Error; err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = storage.Open("", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var body string
	if err := db.Raw("SELECT body FROM notes").Scan(&body).Error; err != nil || body != "kept" {
		t.Fatalf("after reopen: %q %v", body, err)
	}
}

// With DATABASE_URL, Open uses PostgreSQL.
func TestOpenPostgresURL(t *testing.T) {
	base := storagetest.Postgres(t) // skips (or fails in CI) without a server
	db, err := storage.Open(base.DSN, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !db.Postgres {
		t.Fatal("Open with a URL did not choose PostgreSQL")
	}
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
}

// A duplicate key is recognised on both engines, and other errors are not.
func TestIsUniqueViolation(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		if err := db.Exec("CREATE TABLE uniq (email VARCHAR(64) UNIQUE)").Error; err != nil {
			t.Fatal(err)
		}
		if err := db.Exec("INSERT INTO uniq (email) VALUES ('a@example.com')").Error; err != nil {
			t.Fatal(err)
		}
		err := db.Exec("INSERT INTO uniq (email) VALUES ('a@example.com')").Error
		if !storage.IsUniqueViolation(err) {
			t.Fatalf("duplicate insert: %v not recognised", err)
		}
		err = db.Exec("INSERT INTO no_such_table (x) VALUES (1)").Error
		if err == nil || storage.IsUniqueViolation(err) {
			t.Fatalf("missing table: %v", err)
		}
		if storage.IsUniqueViolation(nil) {
			t.Fatal("nil is a violation")
		}
	})
}
