package storage

import (
	"time"

	"gorm.io/gorm"
)

// staffPasskey is one WebAuthn credential of a staff member (frozen copy of
// staff's passkey row). Credential is the library's credential as JSON (the
// public key, flags, authenticator data); SignCount is kept beside it so a
// cloned authenticator (a counter going backwards) is caught by a
// compare-and-set, never by a read-then-write race.
type staffPasskey struct {
	ID           uint64    `gorm:"primaryKey;autoIncrement"`
	AccountID    uint64    `gorm:"not null;index:idx_staff_passkeys_account"`
	CredentialID string    `gorm:"size:1400;not null;uniqueIndex:idx_staff_passkeys_credential"`
	Name         string    `gorm:"size:100;not null;default:''"`
	Credential   string    `gorm:"type:text;not null"`
	SignCount    int64     `gorm:"not null;default:0"`
	CreatedAt    time.Time `gorm:"not null"`
	LastUsedAt   *time.Time
}

func (staffPasskey) TableName() string { return "staff_passkeys" }

// staffTOTP is a member's TOTP secret (usable only while an admin allows
// TOTP for them). LastStep is the 30-second step of the last code accepted:
// a code of that step or an earlier one is refused (no code works twice).
type staffTOTP struct {
	AccountID   uint64    `gorm:"primaryKey;autoIncrement:false"`
	Secret      string    `gorm:"size:128;not null"`
	LastStep    int64     `gorm:"not null;default:0"`
	CreatedAt   time.Time `gorm:"not null"`
	ConfirmedAt *time.Time
}

func (staffTOTP) TableName() string { return "staff_totp" }

// staffRecoveryCode is one single-use recovery code, stored as its SHA-256
// (the codes are random and long: a slow hash adds nothing).
type staffRecoveryCode struct {
	CodeHash  string    `gorm:"primaryKey;size:64"`
	AccountID uint64    `gorm:"not null;index:idx_staff_recovery_account"`
	CreatedAt time.Time `gorm:"not null"`
	UsedAt    *time.Time
}

func (staffRecoveryCode) TableName() string { return "staff_recovery_codes" }

// staffChallenge is a WebAuthn ceremony in progress: the library's session
// data (the challenge), kept in the database so any edge can finish what
// another began, and deleted by the one request that uses it (single use).
// ID is the SHA-256 of the challenge.
type staffChallenge struct {
	ID        string    `gorm:"primaryKey;size:64"`
	AccountID uint64    `gorm:"not null"`
	Kind      string    `gorm:"size:16;not null"`
	Data      string    `gorm:"type:text;not null"`
	ExpiresAt time.Time `gorm:"not null;index:idx_staff_challenges_expires"`
}

func (staffChallenge) TableName() string { return "staff_challenges" }

func init() {
	register(Migration{Version: 222, Name: "staff_second_factors", Up: func(tx *gorm.DB) error {
		return tx.Migrator().CreateTable(&staffPasskey{}, &staffTOTP{}, &staffRecoveryCode{}, &staffChallenge{})
	}})
}
