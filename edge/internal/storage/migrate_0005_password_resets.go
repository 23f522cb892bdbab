package storage

import (
	"time"

	"gorm.io/gorm"
)

// passwordReset is the table as migration 5 created it (frozen copy of
// accounts.PasswordReset): one row per e-mailed reset link, keyed by the
// SHA-256 (hex) of the link's token, single-use (UsedAt) and expiring.
type passwordReset struct {
	TokenHash string    `gorm:"primaryKey;size:64"`
	AccountID uint64    `gorm:"not null;index:idx_password_resets_account_id"`
	CreatedAt time.Time `gorm:"not null"`
	ExpiresAt time.Time `gorm:"not null"`
	UsedAt    *time.Time
}

func (passwordReset) TableName() string { return "password_resets" }

func init() {
	register(Migration{Version: 5, Name: "password_resets", Up: func(tx *gorm.DB) error {
		return tx.AutoMigrate(&passwordReset{})
	}})
}
