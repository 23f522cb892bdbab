package billing

import "time"

// Order is one licence order (table license_orders, storage migration 120):
// a plan chosen at initialiseLicenses or PetPawlor licences bought. Amounts
// are integer paise, fixed when the order is made.
type Order struct {
	ID            string `gorm:"primaryKey"` // a random UUID: the id in payment URLs
	AccountID     uint64
	Product       string // ProductPlan or ProductPetPawlor
	ItemID        string // the plan's or add-on's id in plans.json
	Quantity      int64
	SubtotalPaise int64  `gorm:"column:subtotal_paise"`
	GSTPaise      int64  `gorm:"column:gst_paise"`
	TotalPaise    int64  `gorm:"column:total_paise"`
	Currency      string // "INR"
	Status        string // OrderPending or OrderPaid
	Provider      string // who was asked to take the payment ("stripe", "testmode", "free")
	ProviderRef   *string
	CreatedAt     time.Time
	UpdatedAt     time.Time
	PaidAt        *time.Time
}

func (Order) TableName() string { return "license_orders" }

// PaymentEvent is one confirmation received from the provider (table
// payment_events), stored whatever it said; (provider, event_id) is unique,
// which is what makes a replayed event change nothing twice.
type PaymentEvent struct {
	ID         uint64 `gorm:"primaryKey"`
	Provider   string
	EventID    string
	Type       string
	OrderID    string
	Outcome    string // applied, already_paid, ignored, unknown_order, amount_mismatch
	Payload    string
	ReceivedAt time.Time
}

func (PaymentEvent) TableName() string { return "payment_events" }

// StatusChange is one move of an account's onboarding status (table
// account_status_changes).
type StatusChange struct {
	ID         uint64 `gorm:"primaryKey"`
	AccountID  uint64
	FromStatus string
	ToStatus   string
	Reason     string
	OrderID    string
	CreatedAt  time.Time
}

func (StatusChange) TableName() string { return "account_status_changes" }

// Products and order states.
const (
	ProductPlan      = "plan"
	ProductPetPawlor = "petpawlor"
	OrderPending     = "pending"
	OrderPaid        = "paid"
)
