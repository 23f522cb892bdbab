package storage

import (
	"time"

	"gorm.io/gorm"
)

// account is the table as migration 3 created it, a frozen copy of
// accounts.Account: a later change to the model needs a new migration.
// PasswordHash is empty for an account made by Google sign-in; StoreName is
// NULL until one is chosen (Google sign-up); GoogleSubject is NULL until the
// account signs in with Google. NULLs never collide in a unique index.
type account struct {
	ID            uint64    `gorm:"primaryKey"`
	Name          string    `gorm:"size:100;not null"`
	Email         string    `gorm:"size:254;not null;uniqueIndex:idx_accounts_email"`
	PasswordHash  string    `gorm:"size:255;not null;default:''"`
	StoreName     *string   `gorm:"size:63;uniqueIndex:idx_accounts_store_name"`
	GoogleSubject *string   `gorm:"size:255;uniqueIndex:idx_accounts_google_subject"`
	Status        string    `gorm:"size:64;not null"`
	CreatedAt     time.Time `gorm:"not null"`
	UpdatedAt     time.Time `gorm:"not null"`
}

func (account) TableName() string { return "accounts" }

func init() {
	register(Migration{Version: 3, Name: "accounts", Up: func(tx *gorm.DB) error {
		return tx.AutoMigrate(&account{})
	}})
}
