package storage

import (
	"time"

	"gorm.io/gorm"
)

// image is migration 250's table: a picture a staff member uploaded for an
// article (internal/images). Its bytes are in image_variants, in the
// database, so every edge serves them; bytes is the sum of its variants'
// sizes, what counts against the member's storage.
type image struct {
	ID        uint64    `gorm:"primaryKey;autoIncrement"`
	AccountID uint64    `gorm:"not null;index"`
	Alt       string    `gorm:"size:1000;not null"`
	Width     int       `gorm:"not null"`
	Height    int       `gorm:"not null"`
	Bytes     int64     `gorm:"not null"`
	CreatedAt time.Time `gorm:"not null"`
}

func (image) TableName() string { return "images" }

// imageVariant is one encoding of an image at one width: WebP, and JPEG or
// PNG for browsers without WebP.
type imageVariant struct {
	ImageID     uint64 `gorm:"primaryKey;autoIncrement:false"`
	Width       int    `gorm:"primaryKey;autoIncrement:false"`
	Format      string `gorm:"primaryKey;size:8"`
	Height      int    `gorm:"not null"`
	ContentType string `gorm:"size:40;not null"`
	Body        []byte `gorm:"not null"`
}

func (imageVariant) TableName() string { return "image_variants" }

func init() {
	register(Migration{Version: 250, Name: "images", Up: func(tx *gorm.DB) error {
		return tx.Migrator().CreateTable(&image{}, &imageVariant{})
	}})
}
