package storage

import (
	"time"

	"gorm.io/gorm"
)

// The content store's tables (edge/internal/content): the site's articles,
// help topics and categories, policies, campaign links and redirects, each an
// item with every revision kept, share-preview links and the lease that lets
// one edge at a time publish what is scheduled.

// contentItem is one piece of content: its type and slug (unique per type),
// its state (draft, scheduled, published, unpublished), its latest revision
// (what the studio edits) and its live one (what visitors see).
type contentItem struct {
	ID                  uint64     `gorm:"primaryKey;autoIncrement"`
	Type                string     `gorm:"size:32;not null;uniqueIndex:content_items_type_slug,priority:1"`
	Slug                string     `gorm:"size:300;not null;uniqueIndex:content_items_type_slug,priority:2"`
	State               string     `gorm:"size:16;not null;index"`
	ScheduledAt         *time.Time `gorm:"index"`
	ScheduledRevisionID *uint64
	LatestRevisionID    uint64 `gorm:"not null;default:0"`
	PublishedRevisionID *uint64
	PendingRevisionID   *uint64 // a newer repository file staff have not taken
	// SeedKey names the repository file (type/slug) the item was imported
	// from; SeedHash is the SHA-256 of the repository file last imported for this
	// item ("" for items made in the studio); StaffEdited says a staff member
	// saved it since that import.
	SeedKey     string `gorm:"size:400;not null;default:'';index"`
	SeedHash    string `gorm:"size:64;not null;default:''"`
	StaffEdited bool   `gorm:"not null;default:false"`
	PublishedAt *time.Time
	CreatedAt   time.Time `gorm:"not null"`
	UpdatedAt   time.Time `gorm:"not null;index"`
}

func (contentItem) TableName() string { return "content_items" }

// contentRevision is one saved version of an item, never changed after.
type contentRevision struct {
	ID        uint64    `gorm:"primaryKey;autoIncrement"`
	ItemID    uint64    `gorm:"not null;uniqueIndex:content_revisions_item_number,priority:1"`
	Number    int       `gorm:"not null;uniqueIndex:content_revisions_item_number,priority:2"`
	Slug      string    `gorm:"size:300;not null"`
	Fields    string    `gorm:"type:text;not null"` // JSON object of strings
	Body      string    `gorm:"type:text;not null"`
	HTML      string    `gorm:"column:html;type:text;not null"`
	Author    string    `gorm:"size:254;not null;index"`
	Note      string    `gorm:"size:500;not null;default:''"`
	CreatedAt time.Time `gorm:"not null"`
}

func (contentRevision) TableName() string { return "content_revisions" }

// contentPreview is a share-preview link: only its token's SHA-256 is kept.
type contentPreview struct {
	ID        uint64    `gorm:"primaryKey;autoIncrement"`
	ItemID    uint64    `gorm:"not null;index"`
	TokenHash string    `gorm:"size:64;not null;uniqueIndex"`
	CreatedBy string    `gorm:"size:254;not null"`
	CreatedAt time.Time `gorm:"not null"`
	ExpiresAt time.Time `gorm:"not null"`
	RevokedAt *time.Time
}

func (contentPreview) TableName() string { return "content_previews" }

// contentLease is a named lease: the edge whose holder it names may act
// (the scheduler) until it expires; the others wait for it to lapse.
type contentLease struct {
	Name      string    `gorm:"primaryKey;size:64"`
	Holder    string    `gorm:"size:128;not null"`
	ExpiresAt time.Time `gorm:"not null"`
}

func (contentLease) TableName() string { return "content_leases" }

func init() {
	register(Migration{Version: 200, Name: "content_store", Up: func(tx *gorm.DB) error {
		return tx.Migrator().CreateTable(&contentItem{}, &contentRevision{}, &contentPreview{}, &contentLease{})
	}})
}
