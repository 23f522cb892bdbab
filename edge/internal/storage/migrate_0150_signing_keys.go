package storage

import "gorm.io/gorm"

// Keys the edge signs with, shared by every instance on the database and
// kept across restarts: one row per purpose (accounts' device cookies,
// issue 28.4), made by the first instance that needs it.
func init() {
	register(Migration{Version: 150, Name: "signing_keys", Up: func(tx *gorm.DB) error {
		return tx.Exec(`CREATE TABLE signing_keys (
			name text PRIMARY KEY,
			secret text NOT NULL
		)`).Error
	}})
}
