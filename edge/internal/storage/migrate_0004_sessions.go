package storage

import (
	"time"

	"gorm.io/gorm"
)

// session is the table as migration 4 created it (frozen copy of
// accounts.Session). ID is the SHA-256 (hex) of the cookie's random token, so
// the table never holds a usable cookie value. LastSeenAt drives the idle
// expiry and its index the pruning of expired rows.
type session struct {
	ID         string    `gorm:"primaryKey;size:64"`
	AccountID  uint64    `gorm:"not null;index:idx_sessions_account_id"`
	CreatedAt  time.Time `gorm:"not null"`
	LastSeenAt time.Time `gorm:"not null;index:idx_sessions_last_seen_at"`
}

func (session) TableName() string { return "sessions" }

func init() {
	register(Migration{Version: 4, Name: "sessions", Up: func(tx *gorm.DB) error {
		return tx.AutoMigrate(&session{})
	}})
}
