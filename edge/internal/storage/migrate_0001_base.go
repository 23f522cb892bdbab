package storage

import "gorm.io/gorm"

func init() {
	register(Migration{Version: 1, Name: "base", Up: func(tx *gorm.DB) error { return nil }})
}
