package billing

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"omnibus/edge/internal/accounts"
)

// newOrder is a pending order of quantity of item (of product) for acct,
// priced by the catalogue.
func (s *Service) newOrder(acct *accounts.Account, product string, item Item, quantity int64) *Order {
	ch := s.cat.Price(item, quantity)
	now := s.now()
	return &Order{ID: uuid.NewString(), AccountID: acct.ID, Product: product, ItemID: item.ID, Quantity: quantity,
		SubtotalPaise: ch.SubtotalPaise, GSTPaise: ch.GSTPaise, TotalPaise: ch.TotalPaise, Currency: s.cat.Currency,
		Status: OrderPending, Provider: s.providerName(), CreatedAt: now, UpdatedAt: now}
}

// placePlanOrder stores acct's order of plan and moves its status with it,
// in one transaction: to pending_initial_license_payment, or for a free
// plan (paid at once) to active. It returns the order and the status after.
func (s *Service) placePlanOrder(ctx context.Context, acct *accounts.Account, plan Item) (*Order, string, error) {
	o := s.newOrder(acct, ProductPlan, plan, 1)
	status := acct.Status
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if o.TotalPaise == 0 { // a free plan needs no payment
			o.Status, o.Provider, o.PaidAt = OrderPaid, "free", &o.CreatedAt
		}
		if err := tx.Create(o).Error; err != nil {
			return err
		}
		to := StatusPendingPayment
		if o.Status == OrderPaid {
			to = StatusActive
		}
		moved, err := moveStatus(tx, acct.ID, to, "initialiseLicenses", o.ID, o.CreatedAt)
		if moved {
			status = to
		}
		return err
	})
	return o, status, err
}

// placeAddonOrder stores acct's order of quantity licences of addon.
func (s *Service) placeAddonOrder(ctx context.Context, acct *accounts.Account, addon Addon, quantity int64) (*Order, error) {
	o := s.newOrder(acct, ProductPetPawlor, addon.Item, quantity)
	return o, s.db.WithContext(ctx).Create(o).Error
}

// ownOrder loads the order id of product owned by acct, or nil.
func (s *Service) ownOrder(ctx context.Context, acct *accounts.Account, id, product string) (*Order, error) {
	if _, err := uuid.Parse(id); err != nil || acct == nil {
		return nil, nil
	}
	var o Order
	q := s.db.WithContext(ctx).Where("id = ? AND account_id = ?", id, acct.ID)
	if product != "" {
		q = q.Where("product = ?", product)
	}
	err := q.First(&o).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	return &o, err
}

// orderJSON is an order as the API shows it.
type orderJSON struct {
	ID            string `json:"id"`
	Product       string `json:"product"`
	ItemID        string `json:"itemId"`
	Name          string `json:"name"`
	Quantity      int64  `json:"quantity"`
	SubtotalPaise int64  `json:"subtotalPaise"`
	GSTPaise      int64  `json:"gstPaise"`
	TotalPaise    int64  `json:"totalPaise"`
	Currency      string `json:"currency"`
	Status        string `json:"status"`
	PaymentURL    string `json:"paymentUrl,omitempty"`
}

func (s *Service) orderView(o *Order) orderJSON {
	v := orderJSON{ID: o.ID, Product: o.Product, ItemID: o.ItemID, Quantity: o.Quantity, SubtotalPaise: o.SubtotalPaise,
		GSTPaise: o.GSTPaise, TotalPaise: o.TotalPaise, Currency: o.Currency, Status: o.Status}
	if o.Product == ProductPlan {
		p, _ := s.cat.Plan(o.ItemID)
		v.Name = p.Name
	} else {
		a, _ := s.cat.Addon(o.ItemID)
		v.Name = a.Name
	}
	if o.Status == OrderPending {
		v.PaymentURL = paymentPath(o)
	}
	return v
}

func paymentPath(o *Order) string {
	if o.Product == ProductPetPawlor {
		return "/api/v1/petpawlor/license/payment/show-payment-page/" + o.ID
	}
	return "/api/v1/license/payment/show-payment-page/" + o.ID
}

// successPath is where the provider returns the buyer after paying.
func (s *Service) successPath(o *Order) string {
	if o.Product == ProductPetPawlor {
		return "/petpawlor-order-complete?order=" + o.ID
	}
	return "/landing-page?order=" + o.ID
}

func (s *Service) cancelPath(o *Order) string {
	if o.Product == ProductPetPawlor {
		return "/petpawlor"
	}
	return "/choose-plan"
}

func (s *Service) absolute(path string) string {
	return s.public.Scheme + "://" + s.public.Host + path
}
