package storage_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// openAgain opens db's database again with opts, as a restarted edge does.
func openAgain(db *storage.DB, opts ...storage.Option) (*storage.DB, error) {
	if db.Postgres {
		return storage.OpenPostgres(db.DSN, opts...)
	}
	return storage.OpenSQLite(strings.SplitN(db.DSN, "?", 2)[0], opts...)
}

// A database a newer edge migrated (a migration this binary does not know)
// is refused, by name and version, and left exactly as it was; allowed
// explicitly (development), it opens and says it is newer.
func TestNewerSchemaIsRefused(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		known := db.Schema.Known
		if known == 0 || db.Schema.Version != known || db.Schema.Newer() {
			t.Fatalf("a fresh database: %+v", db.Schema)
		}
		future := known + 1000
		if err := db.Exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", future, "from_a_newer_edge", time.Now().UTC()).Error; err != nil {
			t.Fatal(err)
		}
		var rows int64
		db.Table("schema_migrations").Count(&rows)

		again, err := openAgain(db)
		var newer *storage.NewerSchemaError
		if !errors.As(err, &newer) {
			t.Fatalf("opened a schema a newer edge migrated: db %v, err %v", again, err)
		}
		if newer.Schema.Version != future || newer.Schema.Known != known ||
			!strings.Contains(err.Error(), "from_a_newer_edge") || !strings.Contains(err.Error(), "newer edge") {
			t.Errorf("error %q, schema %+v", err, newer.Schema)
		}
		var after int64
		db.Table("schema_migrations").Count(&after)
		if after != rows {
			t.Errorf("schema_migrations went from %d to %d rows", rows, after)
		}

		allowed, err := openAgain(db, storage.AllowNewerSchema(true))
		if err != nil {
			t.Fatal(err)
		}
		defer allowed.Close()
		if !allowed.Schema.Newer() || allowed.Schema.Version != future || len(allowed.Schema.Applied) != 0 {
			t.Errorf("allowed: %+v", allowed.Schema)
		}
	})
}

// Open says what it applied: everything on an empty database, nothing on
// a current one.
func TestSchemaSaysWhatWasApplied(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		if n := len(db.Schema.Applied); n == 0 || db.Schema.Applied[n-1].Version != db.Schema.Known {
			t.Errorf("an empty database: applied %d migrations, the last %+v", n, db.Schema)
		}
		again, err := openAgain(db)
		if err != nil {
			t.Fatal(err)
		}
		defer again.Close()
		if len(again.Schema.Applied) != 0 || again.Schema.Version != db.Schema.Known {
			t.Errorf("a current database: %+v", again.Schema)
		}
	})
}
