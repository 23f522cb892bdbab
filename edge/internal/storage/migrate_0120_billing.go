package storage

import (
	"time"

	"gorm.io/gorm"
)

// The billing tables as migration 120 created them (frozen copies of the
// models in internal/billing; a later change needs a new migration).
type licenseOrder struct {
	ID            string    `gorm:"primaryKey;size:36"`
	AccountID     uint64    `gorm:"not null;index:idx_license_orders_account"`
	Product       string    `gorm:"size:20;not null"`
	ItemID        string    `gorm:"size:40;not null"`
	Quantity      int64     `gorm:"not null"`
	SubtotalPaise int64     `gorm:"column:subtotal_paise;not null"`
	GSTPaise      int64     `gorm:"column:gst_paise;not null"`
	TotalPaise    int64     `gorm:"column:total_paise;not null"`
	Currency      string    `gorm:"size:3;not null"`
	Status        string    `gorm:"size:20;not null"`
	Provider      string    `gorm:"size:20;not null"`
	ProviderRef   *string   `gorm:"size:255;index:idx_license_orders_provider_ref"`
	CreatedAt     time.Time `gorm:"not null"`
	UpdatedAt     time.Time `gorm:"not null"`
	PaidAt        *time.Time
}

func (licenseOrder) TableName() string { return "license_orders" }

type paymentEvent struct {
	ID         uint64    `gorm:"primaryKey"`
	Provider   string    `gorm:"size:20;not null;uniqueIndex:idx_payment_events_provider_event,priority:1"`
	EventID    string    `gorm:"size:255;not null;uniqueIndex:idx_payment_events_provider_event,priority:2"`
	Type       string    `gorm:"size:100;not null"`
	OrderID    string    `gorm:"size:36;not null;default:''"`
	Outcome    string    `gorm:"size:40;not null;default:''"`
	Payload    string    `gorm:"type:text;not null"`
	ReceivedAt time.Time `gorm:"not null"`
}

func (paymentEvent) TableName() string { return "payment_events" }

type accountStatusChange struct {
	ID         uint64    `gorm:"primaryKey"`
	AccountID  uint64    `gorm:"not null;index:idx_account_status_changes_account"`
	FromStatus string    `gorm:"size:64;not null"`
	ToStatus   string    `gorm:"size:64;not null"`
	Reason     string    `gorm:"size:64;not null"`
	OrderID    string    `gorm:"size:36;not null;default:''"`
	CreatedAt  time.Time `gorm:"not null"`
}

func (accountStatusChange) TableName() string { return "account_status_changes" }

func init() {
	register(Migration{Version: 120, Name: "billing", Up: func(tx *gorm.DB) error {
		return tx.AutoMigrate(&licenseOrder{}, &paymentEvent{}, &accountStatusChange{})
	}})
}
