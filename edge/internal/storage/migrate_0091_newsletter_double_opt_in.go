package storage

import "gorm.io/gorm"

// Migration 91: newsletter double opt-in. A subscription is
// pending (confirmed_at NULL) until the link mailed to the address is
// opened; confirm_token_hash is the SHA-256 of that link's token (unique
// while set), confirm_sent_at when it was mailed. Rows from before this
// migration were never confirmed by their address and stay pending.
func init() {
	register(Migration{Version: 91, Name: "newsletter_double_opt_in", Up: func(tx *gorm.DB) error {
		typ := "datetime"
		if tx.Dialector.Name() == "postgres" {
			typ = "timestamptz"
		}
		for _, q := range []string{
			"ALTER TABLE newsletter_subscriptions ADD COLUMN confirmed_at " + typ + " NULL",
			"ALTER TABLE newsletter_subscriptions ADD COLUMN confirm_sent_at " + typ + " NULL",
			"ALTER TABLE newsletter_subscriptions ADD COLUMN confirm_token_hash varchar(64) NULL",
			"CREATE UNIQUE INDEX idx_newsletter_confirm_token ON newsletter_subscriptions (confirm_token_hash)",
		} {
			if err := tx.Exec(q).Error; err != nil {
				return err
			}
		}
		return nil
	}})
}
