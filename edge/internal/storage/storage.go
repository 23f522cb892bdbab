// Package storage opens the edge's database through gorm: the embedded,
// cgo-free SQLite by default, PostgreSQL when a URL is given. It also runs
// the versioned migrations (migrations.go) at start.
package storage

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/glebarez/sqlite"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// DB is the database handle shared by every feature package.
type DB struct {
	*gorm.DB
	// Postgres is true on PostgreSQL (LISTEN/NOTIFY and other server-only features).
	Postgres bool
	// DSN is the connection string it was opened with.
	DSN string
	// DirectDSN reaches the same PostgreSQL database without a
	// transaction-mode pooler in between: what needs one server session
	// for longer than a transaction (the migration lock, LISTEN) uses it.
	// It is DSN unless DATABASE_DIRECT_URL says otherwise.
	DirectDSN string
}

// Open connects to PostgreSQL when databaseURL is set, otherwise to the
// SQLite file omnibus.db under dataDir (created if missing), then migrates.
func Open(databaseURL, dataDir string) (*DB, error) {
	return OpenDirect(databaseURL, "", dataDir)
}

// OpenDirect is Open with PostgreSQL's direct URL (DATABASE_DIRECT_URL)
// beside its pooled one: see OpenPostgresPooled.
func OpenDirect(databaseURL, directURL, dataDir string) (*DB, error) {
	if databaseURL != "" {
		return OpenPostgresPooled(databaseURL, directURL)
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, fmt.Errorf("storage: data dir: %w", err)
	}
	return OpenSQLite(filepath.Join(dataDir, "omnibus.db"))
}

// OpenSQLite opens (or creates) a SQLite file and migrates it.
func OpenSQLite(path string) (*DB, error) {
	// WAL lets readers run beside the writer; busy_timeout waits for a lock
	// instead of failing at once; foreign keys are off by default in SQLite.
	// _txlock=immediate: every transaction takes the write lock when it
	// begins, so one that reads before it writes waits its turn instead of
	// failing with SQLITE_BUSY when it tries to upgrade (issue 9).
	dsn := path + "?_txlock=immediate&_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)"
	g, err := gorm.Open(sqlite.Open(dsn), gormConfig())
	if err != nil {
		return nil, fmt.Errorf("storage: open sqlite: %w", err)
	}
	db := &DB{DB: g, DSN: dsn}
	return db, db.migrate()
}

// OpenPostgres connects to PostgreSQL and migrates it.
func OpenPostgres(url string) (*DB, error) { return OpenPostgresPooled(url, "") }

// OpenPostgresPooled connects to PostgreSQL at url, which may go through a
// transaction-mode pooler such as PgBouncer when direct (a session
// connection to the same database) is given: statements then use the
// simple protocol (a pooler in transaction mode cannot keep a prepared
// statement between transactions), and the migrations run under their
// session lock on a connection to direct, as the purge listener does.
func OpenPostgresPooled(url, direct string) (*DB, error) {
	pooled := direct != "" && direct != url
	g, err := gorm.Open(postgres.New(postgres.Config{DSN: url, PreferSimpleProtocol: pooled}), gormConfig())
	if err != nil {
		return nil, fmt.Errorf("storage: open postgres: %w", err)
	}
	db := &DB{DB: g, Postgres: true, DSN: url, DirectDSN: url}
	if !pooled {
		return db, db.migrate()
	}
	db.DirectDSN = direct
	d, err := gorm.Open(postgres.Open(direct), gormConfig())
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: open postgres (DATABASE_DIRECT_URL): %w", err)
	}
	err = (&DB{DB: d, Postgres: true, DSN: direct, DirectDSN: direct}).migrate()
	if sqlDB, e := d.DB(); e == nil {
		sqlDB.Close()
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Ping reports whether the database answers (used by /readyz).
func (db *DB) Ping() error {
	sqlDB, err := db.DB.DB()
	if err != nil {
		return err
	}
	return sqlDB.Ping()
}

// Close releases the connections.
func (db *DB) Close() error {
	sqlDB, err := db.DB.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// IsUniqueViolation reports whether err is a unique-constraint failure on
// either database.
func IsUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	// With TranslateError, gorm reports duplicates as ErrDuplicatedKey
	// (the sqlite driver does so for every Exec and Create).
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "UNIQUE constraint failed") || strings.Contains(s, "SQLSTATE 23505") || strings.Contains(s, "duplicate key")
}

func gormConfig() *gorm.Config {
	return &gorm.Config{Logger: logger.Default.LogMode(logger.Silent), TranslateError: true}
}
