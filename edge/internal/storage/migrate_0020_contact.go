package storage

import (
	"time"

	"gorm.io/gorm"
)

// contactMessage is the table as migration 20 created it: one row per
// message sent through the contact-form pages. It is a frozen copy (the live
// model is contact.Message): a later change needs a new migration.
type contactMessage struct {
	ID        uint64    `gorm:"primaryKey"`
	Topic     string    `gorm:"size:40;not null;index:idx_contact_messages_topic_created,priority:1"`
	Name      string    `gorm:"size:100;not null"`
	Email     string    `gorm:"size:254;not null"`
	Company   string    `gorm:"size:120;not null;default:''"`
	Phone     string    `gorm:"size:20;not null;default:''"`
	Message   string    `gorm:"type:text;not null"`
	CreatedAt time.Time `gorm:"not null;index:idx_contact_messages_topic_created,priority:2"`
}

func (contactMessage) TableName() string { return "contact_messages" }

func init() {
	register(Migration{Version: 20, Name: "contact", Up: func(tx *gorm.DB) error {
		return tx.AutoMigrate(&contactMessage{})
	}})
}
