package storage

import "gorm.io/gorm"

// accountStoreTitle is the column migration 190 adds to accounts: the store
// name as the merchant typed it ("Jane's Pet Shop"), shown on their pages,
// beside store_name, the unique subdomain made from it ("janes-pet-shop").
// Accounts made before it have ” and are shown their subdomain.
type accountStoreTitle struct {
	StoreTitle string `gorm:"column:store_title;size:400;not null;default:''"`
}

func (accountStoreTitle) TableName() string { return "accounts" }

func init() {
	register(Migration{Version: 190, Name: "accounts_store_title", Up: func(tx *gorm.DB) error {
		return tx.Migrator().AddColumn(&accountStoreTitle{}, "StoreTitle")
	}})
}
