package storage

import (
	"time"

	"gorm.io/gorm"
)

// staffMember is migration 220's table (frozen copy of staff.member): one
// row per staff account and its one role. It replaces the accounts.staff
// flag of migration 141, which nothing reads any more: every account that
// had the flag becomes a viewer, the role that may do exactly what the flag
// allowed (read the insights); anything more needs a new, explicit grant
// (docs/decisions/0048-staff-roles-passkeys-audit.md).
type staffMember struct {
	AccountID uint64    `gorm:"primaryKey;autoIncrement:false"`
	Role      string    `gorm:"size:16;not null"`
	GrantedBy string    `gorm:"size:320;not null"`
	GrantedAt time.Time `gorm:"not null"`
	Reason    string    `gorm:"size:500;not null;default:''"`
	// TOTPAllowed is an admin's permission for this member to use a TOTP
	// code instead of a passkey.
	TOTPAllowed bool `gorm:"column:totp_allowed;not null;default:false"`
}

func (staffMember) TableName() string { return "staff_members" }

// staffSession is a studio session: separate from the merchant's
// (sessions), short-lived, bound to the second factor that opened it.
// ID is the SHA-256 of the cookie's token.
type staffSession struct {
	ID        string    `gorm:"primaryKey;size:64"`
	AccountID uint64    `gorm:"not null;index:idx_staff_sessions_account"`
	CreatedAt time.Time `gorm:"not null"`
	ExpiresAt time.Time `gorm:"not null;index:idx_staff_sessions_expires"`
	// VerifiedAt is the last second-factor ceremony of this session (the
	// sign-in, or a re-check before publishing, granting or revoking).
	VerifiedAt time.Time `gorm:"not null"`
	// Method is passkey, totp or recovery; CredentialID names the passkey
	// that opened it (base64url), so revoking that passkey ends it.
	Method       string `gorm:"size:16;not null"`
	CredentialID string `gorm:"size:1400;not null;default:''"`
	ClientIP     string `gorm:"size:64;not null;default:''"`
}

func (staffSession) TableName() string { return "staff_sessions" }

func init() {
	register(Migration{Version: 220, Name: "staff_roles", Up: func(tx *gorm.DB) error {
		if err := tx.Migrator().CreateTable(&staffMember{}, &staffSession{}); err != nil {
			return err
		}
		return tx.Exec(`INSERT INTO staff_members (account_id, role, granted_by, granted_at, reason, totp_allowed)
			SELECT id, 'viewer', 'migration', ?, 'staff before roles existed: read the insights', ? FROM accounts WHERE staff = ?`,
			time.Now().UTC(), false, true).Error
	}})
}
