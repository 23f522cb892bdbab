package storage

import "gorm.io/gorm"

// Rate limits shared by every edge instance on PostgreSQL
// (internal/ratelimit/shared.go): one row per limiter and hashed key, holding
// the bucket's theoretical arrival time. SQLite runs one instance, whose
// limits stay in memory, so it gets no table.
func init() {
	register(Migration{Version: 110, Name: "rate_limits", Up: func(tx *gorm.DB) error {
		if tx.Dialector.Name() != "postgres" {
			return nil
		}
		return tx.Exec(`CREATE TABLE rate_limits (
			name text NOT NULL,
			key text NOT NULL,
			tat timestamptz NOT NULL,
			PRIMARY KEY (name, key)
		)`).Error
	}})
}
