package storage

import (
	"time"

	"gorm.io/gorm"
)

// emailVerification is the table as migration 90 created it (frozen copy of
// accounts.EmailVerification): one e-mailed confirmation link, keyed by the
// SHA-256 of its token.
type emailVerification struct {
	TokenHash string     `gorm:"primaryKey;size:64"`
	AccountID uint64     `gorm:"not null;index:idx_email_verifications_account"`
	CreatedAt time.Time  `gorm:"not null"`
	ExpiresAt time.Time  `gorm:"not null;index:idx_email_verifications_expires"`
	UsedAt    *time.Time `gorm:""`
}

func (emailVerification) TableName() string { return "email_verifications" }

// Migration 90: accounts.email_verified_at — NULL until the owner
// of the address proved it (a link sent to it, or Google's verified e-mail).
// Accounts made by Google sign-in were proved when they were made.
func init() {
	register(Migration{Version: 90, Name: "email_verification", Up: func(tx *gorm.DB) error {
		typ := "datetime"
		if tx.Dialector.Name() == "postgres" {
			typ = "timestamptz"
		}
		if err := tx.Exec("ALTER TABLE accounts ADD COLUMN email_verified_at " + typ + " NULL").Error; err != nil {
			return err
		}
		if err := tx.Exec("UPDATE accounts SET email_verified_at = created_at WHERE google_subject IS NOT NULL").Error; err != nil {
			return err
		}
		return tx.AutoMigrate(&emailVerification{})
	}})
}
