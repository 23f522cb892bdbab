package storage

import "gorm.io/gorm"

// Migration 151: accounts.reclaimed_at — when the proved owner
// of the address (Google) took the account back from a party that had
// registered it without proving it; the owner's pages say so for a day.
func init() {
	register(Migration{Version: 151, Name: "account_reclaimed", Up: func(tx *gorm.DB) error {
		typ := "datetime"
		if tx.Dialector.Name() == "postgres" {
			typ = "timestamptz"
		}
		return tx.Exec("ALTER TABLE accounts ADD COLUMN reclaimed_at " + typ + " NULL").Error
	}})
}
