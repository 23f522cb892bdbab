package storage

import (
	"time"

	"gorm.io/gorm"
)

// mailOutbox is the table as migration 6 created it (frozen copy of
// mail.OutboxMessage): where outgoing e-mail goes when no SMTP server is
// configured, so a developer (or an operator) can read it.
type mailOutbox struct {
	ID        uint64    `gorm:"primaryKey"`
	Recipient string    `gorm:"size:320;not null"`
	Subject   string    `gorm:"size:255;not null"`
	Body      string    `gorm:"type:text;not null"`
	CreatedAt time.Time `gorm:"not null;index:idx_mail_outbox_created_at"`
}

func (mailOutbox) TableName() string { return "mail_outbox" }

func init() {
	register(Migration{Version: 6, Name: "mail_outbox", Up: func(tx *gorm.DB) error {
		return tx.AutoMigrate(&mailOutbox{})
	}})
}
