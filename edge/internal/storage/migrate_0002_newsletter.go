package storage

import (
	"time"

	"gorm.io/gorm"
)

// newsletterSubscription is the table as migration 2 created it. It is a
// frozen copy (the live model is newsletter.Subscription): a later change to
// the model needs a new migration, never an edit here.
type newsletterSubscription struct {
	ID        uint64    `gorm:"primaryKey"`
	Email     string    `gorm:"size:320;not null;uniqueIndex:idx_newsletter_subscriptions_email"`
	CreatedAt time.Time `gorm:"not null"`
}

func (newsletterSubscription) TableName() string { return "newsletter_subscriptions" }

func init() {
	register(Migration{Version: 2, Name: "newsletter", Up: func(tx *gorm.DB) error {
		return tx.AutoMigrate(&newsletterSubscription{})
	}})
}
