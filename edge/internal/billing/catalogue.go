package billing

import (
	"encoding/json"
	"fmt"

	"omnibus/shared"
)

// Catalogue is shared/content/plans.json: what can be bought and for how
// much. Money is integer paise everywhere; nothing here is a float.
type Catalogue struct {
	Currency       string  `json:"currency"`
	GSTBasisPoints int64   `json:"gstBasisPoints"`
	Plans          []Item  `json:"plans"`
	Addons         []Addon `json:"addons"`
}

// Item is a plan. MonthlyPaise nil is a price on request (not sold online).
type Item struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	MonthlyPaise  *int64 `json:"monthlyPaise"`
	BillingMonths int64  `json:"billingMonths"`
}

// Addon is an add-on licence bought per location (PetPawlor).
type Addon struct {
	Item
	MaxQuantity int64 `json:"maxQuantity"`
}

// LoadCatalogue parses plans.json and checks what billing relies on.
func LoadCatalogue(raw []byte) (*Catalogue, error) {
	var c Catalogue
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("billing: plans.json: %w", err)
	}
	if c.Currency != "INR" || c.GSTBasisPoints < 0 || c.GSTBasisPoints > 10000 {
		return nil, fmt.Errorf("billing: plans.json: currency must be INR and gstBasisPoints 0-10000")
	}
	check := func(it Item) error {
		if it.ID == "" || it.Name == "" || it.BillingMonths < 1 || (it.MonthlyPaise != nil && *it.MonthlyPaise < 0) {
			return fmt.Errorf("billing: plans.json: bad item %q", it.ID)
		}
		return nil
	}
	for _, p := range c.Plans {
		if err := check(p); err != nil {
			return nil, err
		}
	}
	for _, a := range c.Addons {
		if err := check(a.Item); err != nil {
			return nil, err
		}
		if a.MonthlyPaise == nil || a.MaxQuantity < 1 {
			return nil, fmt.Errorf("billing: plans.json: add-on %q needs a price and maxQuantity", a.ID)
		}
	}
	return &c, nil
}

// DefaultCatalogue is the embedded shared/content/plans.json.
func DefaultCatalogue() *Catalogue {
	c, err := LoadCatalogue(shared.PlansJSON)
	if err != nil {
		panic(err)
	}
	return c
}

// Plan finds a plan by id.
func (c *Catalogue) Plan(id string) (Item, bool) {
	for _, p := range c.Plans {
		if p.ID == id {
			return p, true
		}
	}
	return Item{}, false
}

// Addon finds an add-on by id.
func (c *Catalogue) Addon(id string) (Addon, bool) {
	for _, a := range c.Addons {
		if a.ID == id {
			return a, true
		}
	}
	return Addon{}, false
}

// GST on an amount in paise at basisPoints (1800 = 18%), rounded half up to
// the paise, in integer arithmetic.
func GST(amountPaise, basisPoints int64) int64 {
	return (amountPaise*basisPoints + 5000) / 10000
}

// Charge is what an order costs: subtotal, GST and total, in paise.
type Charge struct {
	SubtotalPaise, GSTPaise, TotalPaise int64
}

// Price is the charge for quantity licences of it for its billing period.
func (c *Catalogue) Price(it Item, quantity int64) Charge {
	sub := *it.MonthlyPaise * it.BillingMonths * quantity
	gst := GST(sub, c.GSTBasisPoints)
	return Charge{SubtotalPaise: sub, GSTPaise: gst, TotalPaise: sub + gst}
}
