package storage_test

import (
	"strings"
	"testing"

	"omnibus/edge/internal/storage"
)

// Describe (what the staff command says it opened) names the database it opened, never with a password.
func TestDescribeNamesNoPassword(t *testing.T) {
	for dsn, want := range map[string]string{
		"postgres://app:pw-1@db.example:6432/shop?sslmode=disable&password=pw-2": `the PostgreSQL database "shop" on db.example:6432`,
		"host=db.example user=app password=pw-1 dbname=shop sslmode=disable":     `the PostgreSQL database "shop" on db.example:5432`,
		"postgres//app:pw-1@host/x": "the PostgreSQL database of DATABASE_URL",
	} {
		if got := (&storage.DB{Postgres: true, DSN: dsn}).Describe(); got != want || strings.Contains(got, "pw-") {
			t.Errorf("%q: %q, want %q", dsn, got, want)
		}
	}
	if got := (&storage.DB{DSN: "/srv/data/omnibus.db?_txlock=immediate"}).Describe(); got != "the SQLite database /srv/data/omnibus.db" {
		t.Errorf("sqlite: %q", got)
	}
}
