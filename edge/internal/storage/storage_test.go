package storage_test

import (
	"testing"

	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// Migrations run once per database and are recorded, so a restart of the
// edge never re-applies a change.
func TestMigrationsAreRecordedOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		var n int64
		if err := db.Table("schema_migrations").Where("version = 1").Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("migration 1 recorded %d times, want 1", n)
		}
		if err := db.Ping(); err != nil {
			t.Fatalf("ping: %v", err)
		}
	})
}
