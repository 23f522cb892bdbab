package billing

import (
	"slices"
	"time"

	"gorm.io/gorm"

	"omnibus/edge/internal/accounts"
)

// The onboarding status of an account: what isloggedin reports as
// omnicustomerStatus (SPEC §3, §4).
//
//	account_created ──initialiseLicenses──► pending_initial_license_payment ──payment confirmed──► active
//	account_created ──initialiseLicenses (free plan)────────────────────────────────────────────► active
//
// A merchant in one of the first two goes to /contact-us from /login and
// /register; an active one to the merchant app (/landing-page). Every move
// is one conditional UPDATE (so two racing requests move it once) and one
// account_status_changes row, in the caller's transaction.
const (
	StatusAccountCreated = accounts.StatusAccountCreated
	StatusPendingPayment = accounts.StatusPendingPayment
	StatusActive         = "active"
)

// allowedFrom lists, for each status, the statuses it may be reached from.
var allowedFrom = map[string][]string{
	StatusPendingPayment: {StatusAccountCreated},
	StatusActive:         {StatusAccountCreated, StatusPendingPayment},
}

// moveStatus moves the account to `to` if its status allows it, recording
// the change. It reports whether the status changed.
func moveStatus(tx *gorm.DB, accountID uint64, to, reason, orderID string, now time.Time) (bool, error) {
	var acct accounts.Account
	if err := tx.Select("id", "status").First(&acct, accountID).Error; err != nil {
		return false, err
	}
	from := acct.Status
	if !slices.Contains(allowedFrom[to], from) {
		return false, nil
	}
	res := tx.Model(&accounts.Account{}).Where("id = ? AND status = ?", accountID, from).
		Updates(map[string]any{"status": to, "updated_at": now})
	if res.Error != nil || res.RowsAffected == 0 {
		return false, res.Error
	}
	return true, tx.Create(&StatusChange{AccountID: accountID, FromStatus: from, ToStatus: to, Reason: reason, OrderID: orderID, CreatedAt: now}).Error
}
