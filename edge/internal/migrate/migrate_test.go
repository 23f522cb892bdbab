package migrate

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/config"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// tables reports whether the migrated tables exist.
func assertMigrated(t *testing.T, db *storage.DB) {
	t.Helper()
	for _, table := range []string{"schema_migrations", "accounts", "sessions", "newsletter_subscriptions"} {
		if !db.Migrator().HasTable(table) {
			t.Errorf("table %s missing after edge migrate", table)
		}
	}
	var n int64
	if err := db.Table("schema_migrations").Count(&n).Error; err != nil || n == 0 {
		t.Errorf("schema_migrations: %d rows, %v", n, err)
	}
}

func run(t *testing.T, cfg config.Config) (int, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Run(nil, cfg, &out, &errOut)
	return code, out.String() + errOut.String()
}

func TestMigratesAnEmptySQLiteDatabase(t *testing.T) {
	dir := t.TempDir()
	if code, out := run(t, config.Config{DataDir: dir}); code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	db, err := storage.OpenSQLite(filepath.Join(dir, "omnibus.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	assertMigrated(t, db)
}

func TestMigratesAnEmptyPostgreSQLSchema(t *testing.T) {
	base := storagetest.PostgresURL()
	admin, err := storage.OpenPostgres(base, storage.AllowNewerSchema(true))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL is required in CI: %v", err)
		}
		t.Skipf("PostgreSQL not reachable: %v", err)
	}
	defer admin.Close()
	b := make([]byte, 6)
	rand.Read(b)
	schema := "t_migrate_" + hex.EncodeToString(b)
	if err := admin.Exec("CREATE SCHEMA " + schema).Error; err != nil {
		t.Fatal(err)
	}
	defer admin.Exec("DROP SCHEMA " + schema + " CASCADE")
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	url := base + sep + "search_path=" + schema
	if code, out := run(t, config.Config{DatabaseURL: url}); code != 0 || !strings.Contains(out, "postgresql") {
		t.Fatalf("exit %d: %s", code, out)
	}
	var n int64
	admin.Raw("SELECT count(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = 'accounts'", schema).Scan(&n)
	if n != 1 {
		t.Fatalf("accounts table not created in the fresh schema %s", schema)
	}
}

// An unreachable database fails the init container (exit 1) without
// printing the password from DATABASE_URL into the pod's log.
func TestUnreachableDatabaseFailsWithoutLeakingThePassword(t *testing.T) {
	code, out := run(t, config.Config{DatabaseURL: "postgres://omnibus:s3cret-pw@127.0.0.1:1/omnibus?sslmode=disable&connect_timeout=5"})
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, out)
	}
	if strings.Contains(out, "s3cret-pw") {
		t.Fatalf("the password reached the output: %s", out)
	}
}

func TestExtraArgumentsExitTwo(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Run([]string{"now"}, config.Config{DataDir: t.TempDir()}, &out, &errOut); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
}

// edge migrate says what it applied, and on a current database that there
// was nothing to apply.
func TestMigratePrintsWhatItApplied(t *testing.T) {
	cfg := config.Config{DataDir: t.TempDir()}
	code, out := run(t, cfg)
	if code != 0 || !strings.Contains(out, "migrate: sqlite: applied 0001 ") || !strings.Contains(out, "schema is current: ") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, out = run(t, cfg)
	if code != 0 || strings.Contains(out, "applied") || !strings.Contains(out, "nothing to apply") {
		t.Fatalf("again: exit %d:\n%s", code, out)
	}
}

// A database a newer edge migrated makes edge migrate fail in production,
// naming the schema's migration, and changes nothing; development goes on.
func TestMigrateRefusesANewerSchema(t *testing.T) {
	for engine, open := range map[string]func(t *testing.T) (*storage.DB, config.Config){
		"sqlite": func(t *testing.T) (*storage.DB, config.Config) {
			dir := t.TempDir()
			db, err := storage.OpenSQLite(filepath.Join(dir, "omnibus.db"))
			if err != nil {
				t.Fatal(err)
			}
			return db, config.Config{DataDir: dir}
		},
		"postgres": func(t *testing.T) (*storage.DB, config.Config) {
			db := storagetest.Postgres(t)
			return db, config.Config{DatabaseURL: db.DSN}
		},
	} {
		t.Run(engine, func(t *testing.T) {
			db, cfg := open(t)
			defer db.Close()
			if err := db.Exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", 9999, "from_a_newer_edge", time.Now().UTC()).Error; err != nil {
				t.Fatal(err)
			}
			code, out := run(t, cfg)
			if code != 1 || !strings.Contains(out, "9999 from_a_newer_edge") {
				t.Fatalf("production: exit %d, want 1 naming the newer migration:\n%s", code, out)
			}
			cfg.Env = config.Development
			if code, out := run(t, cfg); code != 0 || !strings.Contains(out, "newer than this edge") {
				t.Fatalf("development: exit %d:\n%s", code, out)
			}
		})
	}
}
