package storage

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"syscall"
	"time"

	"gorm.io/gorm"
)

// Migration is one versioned, forward-only schema change. Versions are
// applied in order, once, and recorded in schema_migrations. Never edit a
// migration that has shipped: add a new one.
type Migration struct {
	Version int
	Name    string
	Up      func(tx *gorm.DB) error
}

// migrations is the schema's history. Each feature appends its own entries
// (with the next free version number) in its own file of this package.
var migrations []Migration

// register adds migrations; called from the init of each migrate_*.go file.
func register(ms ...Migration) { migrations = append(migrations, ms...) }

type schemaMigration struct {
	Version   int `gorm:"primaryKey;autoIncrement:false"`
	Name      string
	AppliedAt time.Time
}

func (schemaMigration) TableName() string { return "schema_migrations" }

// migrate applies the pending migrations under the database's migration
// lock, so replicas booting together on an empty database take turns: the
// first applies everything, the others find it recorded. On PostgreSQL the
// lock is a session advisory lock (one per schema) held by the connection
// that migrates; on SQLite, an exclusive flock on a file beside the database.
func (db *DB) migrate(o options) error {
	return db.Connection(func(conn *gorm.DB) error {
		unlock, err := db.lockMigrations(conn)
		if err != nil {
			return fmt.Errorf("storage: migration lock: %w", err)
		}
		defer unlock()
		db.Schema, err = migrateOn(conn, o.allowNewer)
		return err
	})
}

// Schema is the database's migration state, as Open found and left it.
type Schema struct {
	Version int    // the newest migration applied
	Name    string // its name
	Known   int    // this binary's newest migration
	// Applied are the migrations this Open applied, oldest first (none
	// when the schema was current).
	Applied []Migration
}

// Newer reports a schema migrated past this binary's newest migration (by
// a newer edge).
func (s Schema) Newer() bool { return s.Version > s.Known }

// NewerSchemaError refuses a database migrated by a newer edge.
type NewerSchemaError struct{ Schema Schema }

func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("storage: the database is migrated to %04d %s, past this edge's newest migration (%04d): a newer edge migrated it. "+
		"Run that version or a newer one; this edge changed nothing", e.Schema.Version, e.Schema.Name, e.Schema.Known)
}

// migrationLockKey names the advisory lock: one per schema, so databases
// in separate schemas of one server (tests, several sites) do not wait for
// each other.
const migrationLockKey = "hashtext('omnibus.migrate.' || coalesce(current_schema(), ''))"

func (db *DB) lockMigrations(conn *gorm.DB) (unlock func(), err error) {
	if db.Postgres {
		if err := conn.Exec("SELECT pg_advisory_lock(" + migrationLockKey + ")").Error; err != nil {
			return nil, err
		}
		return func() { conn.Exec("SELECT pg_advisory_unlock(" + migrationLockKey + ")") }, nil
	}
	path, _, _ := strings.Cut(db.DSN, "?")
	f, err := os.OpenFile(path+".migrate-lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil // closing the file releases the lock
}

// migrateOn applies the pending migrations (refusing, before any change, a
// schema newer than this binary's unless allowNewer) and reports the state.
func migrateOn(db *gorm.DB, allowNewer bool) (Schema, error) {
	var s Schema
	if err := db.AutoMigrate(&schemaMigration{}); err != nil {
		return s, fmt.Errorf("storage: schema_migrations: %w", err)
	}
	ms := append([]Migration(nil), migrations...)
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	if len(ms) > 0 {
		s.Known = ms[len(ms)-1].Version
	}
	newest := func() error {
		var last schemaMigration
		err := db.Session(&gorm.Session{NewDB: true}).Order("version DESC").Limit(1).Find(&last).Error
		s.Version, s.Name = last.Version, last.Name
		return err
	}
	if err := newest(); err != nil {
		return s, fmt.Errorf("storage: schema_migrations: %w", err)
	}
	if s.Newer() && !allowNewer {
		return s, &NewerSchemaError{s}
	}
	for i, m := range ms {
		if i > 0 && ms[i-1].Version == m.Version {
			return s, fmt.Errorf("storage: two migrations with version %d", m.Version)
		}
		applied := false
		err := db.Transaction(func(tx *gorm.DB) error {
			var n int64
			if err := tx.Model(&schemaMigration{}).Where("version = ?", m.Version).Count(&n).Error; err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if err := m.Up(tx); err != nil {
				return err
			}
			applied = true
			return tx.Create(&schemaMigration{Version: m.Version, Name: m.Name, AppliedAt: time.Now().UTC()}).Error
		})
		if err != nil {
			return s, fmt.Errorf("storage: migration %d %s: %w", m.Version, m.Name, err)
		}
		if applied {
			s.Applied = append(s.Applied, m)
		}
	}
	if err := newest(); err != nil {
		return s, fmt.Errorf("storage: schema_migrations: %w", err)
	}
	return s, nil
}
