package storage

import "gorm.io/gorm"

// contactMessageCV is the column migration 130 adds to contact_messages: the
// link to a CV that the /career form asks for.
type contactMessageCV struct {
	CVURL string `gorm:"column:cv_url;size:500;not null;default:''"`
}

func (contactMessageCV) TableName() string { return "contact_messages" }

func init() {
	register(Migration{Version: 130, Name: "contact_cv_url", Up: func(tx *gorm.DB) error {
		return tx.Migrator().AddColumn(&contactMessageCV{}, "CVURL")
	}})
}
