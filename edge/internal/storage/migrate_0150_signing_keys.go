package storage

import "gorm.io/gorm"

// Keys the edge signs with, shared by every instance on the database and
// kept across restarts: one row per purpose (accounts' device cookies,
// which let a known browser in while guessers are throttled), made by the first instance that needs it.
func init() {
	register(Migration{Version: 150, Name: "signing_keys", Up: func(tx *gorm.DB) error {
		return tx.Exec(`CREATE TABLE signing_keys (
			name text PRIMARY KEY,
			secret text NOT NULL
		)`).Error
	}})
}
