package storage

import "gorm.io/gorm"

// analyticsCount is migration 140's table: the edge's visit
// counts, one row per day and key, added into by every edge with one upsert
// per key (internal/analytics). Nothing in it names a visitor: kind is
// view, crawl, click, campaign or referrer; dim1 and dim2 are a route
// pattern, a crawler's name, a short link's name, normalised campaign tags
// or a referring host, each from a bounded set.
type analyticsCount struct {
	Day   string `gorm:"primaryKey;size:10"` // UTC date, 2006-01-02
	Kind  string `gorm:"primaryKey;size:16"`
	Dim1  string `gorm:"primaryKey;size:128"`
	Dim2  string `gorm:"primaryKey;size:128"`
	Count int64  `gorm:"not null;default:0"`
}

func (analyticsCount) TableName() string { return "analytics_counts" }

// accountStaff is the column migration 141 adds to accounts: set only by
// the operator command `edge staff grant EMAIL` (no API writes it).
type accountStaff struct {
	Staff bool `gorm:"column:staff;not null;default:false"`
}

func (accountStaff) TableName() string { return "accounts" }

func init() {
	register(
		Migration{Version: 140, Name: "analytics_counts", Up: func(tx *gorm.DB) error {
			return tx.Migrator().CreateTable(&analyticsCount{})
		}},
		Migration{Version: 141, Name: "accounts_staff", Up: func(tx *gorm.DB) error {
			return tx.Migrator().AddColumn(&accountStaff{}, "Staff")
		}},
	)
}
