package storage_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"

	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// The staff flag of before roles becomes the viewer role, which allows
// what the flag allowed (reading the insights) and nothing more: no account
// gains the power to publish from the upgrade; other accounts get no role.
func TestStaffFlagBecomesViewer(t *testing.T) {
	type engine struct {
		open func(t *testing.T) (*gorm.DB, func() (*storage.DB, error))
	}
	engines := map[string]engine{
		"sqlite": {func(t *testing.T) (*gorm.DB, func() (*storage.DB, error)) {
			path := filepath.Join(t.TempDir(), "old.db")
			g, err := gorm.Open(sqlite.Open(path), &gorm.Config{})
			if err != nil {
				t.Fatal(err)
			}
			return g, func() (*storage.DB, error) { return storage.OpenSQLite(path) }
		}},
		"postgres": {func(t *testing.T) (*gorm.DB, func() (*storage.DB, error)) {
			url := storagetest.EmptyPostgres(t)
			g, err := gorm.Open(postgres.Open(url), &gorm.Config{})
			if err != nil {
				t.Fatal(err)
			}
			return g, func() (*storage.DB, error) { return storage.OpenPostgres(url) }
		}},
	}
	for name, eng := range engines {
		t.Run(name, func(t *testing.T) {
			old, reopen := eng.open(t)
			if err := storage.ApplyBefore(old, 220); err != nil {
				t.Fatal(err)
			}
			now := time.Now().UTC()
			for _, a := range []struct {
				email string
				staff bool
			}{{"flagged@example.com", true}, {"merchant@example.com", false}} {
				if err := old.Exec("INSERT INTO accounts (name, email, password_hash, status, created_at, updated_at, staff) VALUES (?, ?, '!', 'account_created', ?, ?, ?)",
					"A", a.email, now, now, a.staff).Error; err != nil {
					t.Fatal(err)
				}
			}
			if d, err := old.DB(); err == nil {
				d.Close()
			}
			db, err := reopen()
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var rows []struct {
				Email string
				Role  string
			}
			if err := db.Raw("SELECT accounts.email, staff_members.role FROM staff_members JOIN accounts ON accounts.id = staff_members.account_id").Scan(&rows).Error; err != nil {
				t.Fatal(err)
			}
			if len(rows) != 1 || rows[0].Email != "flagged@example.com" || rows[0].Role != "viewer" {
				t.Errorf("members after the upgrade: %+v, want flagged@example.com as viewer only", rows)
			}
		})
	}
}
