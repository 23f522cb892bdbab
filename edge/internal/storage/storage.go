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
	"time"

	sqlitedriver "github.com/glebarez/go-sqlite"
	"github.com/glebarez/sqlite"
	"github.com/jackc/pgx/v5/pgconn"
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
	// It is DSN unless Direct says otherwise.
	DirectDSN string
	// Schema is what migrating at open found and did.
	Schema Schema

	pool *boundedPool // LimitPool's; nil until then
}

// Option tunes Open, OpenSQLite and OpenPostgres.
type Option func(*options)

type options struct {
	allowNewer bool
	direct     string
}

// Direct(url) says DATABASE_URL goes through a transaction-mode pooler such
// as PgBouncer and url reaches the same database directly
// (DATABASE_DIRECT_URL; "" means no pooler): statements then use the simple
// protocol (a pooler in transaction mode cannot keep a prepared statement
// between transactions), and the migrations run under their session lock on
// a connection to url, as the purge listener does (decision 0021).
func Direct(url string) Option { return func(o *options) { o.direct = url } }

// AllowNewerSchema(true) lets a database migrated past this binary's newest
// migration be used (development: a branch switched back; test tools on a
// shared server). Without it, such a database is refused with
// *NewerSchemaError before anything in it is changed: an older edge must not
// serve, or migrate, a schema it does not know.
func AllowNewerSchema(allow bool) Option { return func(o *options) { o.allowNewer = allow } }

func optionsOf(opts []Option) options {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// Open connects to PostgreSQL when databaseURL is set, otherwise to the
// SQLite file omnibus.db under dataDir (created if missing), then migrates.
func Open(databaseURL, dataDir string, opts ...Option) (*DB, error) {
	if databaseURL != "" {
		return OpenPostgres(databaseURL, opts...)
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, fmt.Errorf("storage: data dir: %w", err)
	}
	return OpenSQLite(filepath.Join(dataDir, "omnibus.db"), opts...)
}

// sqliteBusy is SQLite's SQLITE_BUSY result code.
const sqliteBusy = 5

// OpenSQLite opens (or creates) a SQLite file and migrates it.
func OpenSQLite(path string, opts ...Option) (*DB, error) {
	// WAL lets readers run beside the writer; busy_timeout waits for a lock
	// instead of failing at once; foreign keys are off by default in SQLite.
	// _txlock=immediate: every transaction takes the write lock when it
	// begins, so one that reads before it writes waits its turn instead of
	// failing with SQLITE_BUSY when it tries to upgrade. The pragmas run in
	// this order on each new connection: busy_timeout first, as switching a
	// new database to WAL takes its lock, and several instances opening one
	// empty database at once must wait for it, not fail.
	dsn := path + "?_txlock=immediate&_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)"
	// Switching a new database to WAL needs its exclusive lock, and SQLite
	// answers a second connection asking for it at the same moment with
	// SQLITE_BUSY at once rather than through the busy timeout (it could
	// deadlock): instances opening one empty database together retry, for
	// as long as the busy timeout would have waited.
	var g *gorm.DB
	var err error
	for wait, deadline := 10*time.Millisecond, time.Now().Add(5*time.Second); ; wait = min(2*wait, 200*time.Millisecond) {
		g, err = gorm.Open(sqlite.Open(dsn), gormConfig())
		var lite *sqlitedriver.Error
		if err == nil || !errors.As(err, &lite) || lite.Code() != sqliteBusy || time.Now().After(deadline) {
			break
		}
		time.Sleep(wait)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: open sqlite: %w", err)
	}
	db := &DB{DB: g, DSN: dsn}
	return db.migrated(optionsOf(opts))
}

// OpenPostgres connects to PostgreSQL and migrates it.
func OpenPostgres(url string, opts ...Option) (*DB, error) {
	o := optionsOf(opts)
	pooled := o.direct != "" && o.direct != url
	g, err := gorm.Open(postgres.New(postgres.Config{DSN: url, PreferSimpleProtocol: pooled}), gormConfig())
	if err != nil {
		return nil, fmt.Errorf("storage: open postgres: %w", err)
	}
	db := &DB{DB: g, Postgres: true, DSN: url, DirectDSN: url}
	if !pooled {
		return db.migrated(o)
	}
	// Migrate on a direct connection of its own, closed after.
	db.DirectDSN = o.direct
	d, err := gorm.Open(postgres.Open(o.direct), gormConfig())
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: open postgres (DATABASE_DIRECT_URL): %w", err)
	}
	m, err := (&DB{DB: d, Postgres: true, DSN: o.direct, DirectDSN: o.direct}).migrated(o)
	if err != nil {
		db.Close()
		return nil, err
	}
	db.Schema = m.Schema
	m.Close()
	return db, nil
}

// migrated migrates db, or closes it and returns the error.
func (db *DB) migrated(o options) (*DB, error) {
	if err := db.migrate(o); err != nil {
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

// Describe names the database (never a password), for an operator's
// command that must say which one it opened: the SQLite file's path, or
// PostgreSQL's database, host and port.
func (db *DB) Describe() string {
	if !db.Postgres {
		path, _, _ := strings.Cut(db.DSN, "?")
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		return "the SQLite database " + path
	}
	cfg, err := pgconn.ParseConfig(db.DSN)
	if err != nil {
		return "the PostgreSQL database of DATABASE_URL"
	}
	return fmt.Sprintf("the PostgreSQL database %q on %s:%d", cfg.Database, cfg.Host, cfg.Port)
}
