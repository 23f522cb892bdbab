package storage

import (
	"time"

	"gorm.io/gorm"
)

// ogCard is migration 266's table: the preview card (1200×630 JPEG) the
// renderer drew for a published article's words (internal/ogcard), keyed
// by a hash of the words and the card's look, so a card's bytes never
// change; in the database, so every edge serves it.
type ogCard struct {
	Hash      string    `gorm:"primaryKey;size:64"`
	Body      []byte    `gorm:"not null"`
	CreatedAt time.Time `gorm:"not null"`
}

func (ogCard) TableName() string { return "og_cards" }

func init() {
	register(Migration{Version: 266, Name: "og_cards", Up: func(tx *gorm.DB) error {
		return tx.Migrator().CreateTable(&ogCard{})
	}})
}
