package storage

import "gorm.io/gorm"

// build_assets keeps the hashed files (/assets/…) of the last few builds that
// ran on this database, so that during a rolling update an edge of one build
// can serve the other build's files (internal/assets/stored.go, decision
// 0024). A path names its bytes (the name carries their hash), so a row is
// stored once whichever builds carry it; seen is when a build carrying it
// last started, and rows not seen by the last builds are pruned.
type buildAsset struct {
	Path        string `gorm:"primaryKey;size:300"`
	ContentType string `gorm:"size:100;not null"`
	Body        []byte `gorm:"not null"`
	Br          []byte
	Gz          []byte
	Seen        int64 `gorm:"not null;index"`
}

func (buildAsset) TableName() string { return "build_assets" }

// assetBuild is one build (the hash of its asset names) and when an edge of
// it last started.
type assetBuild struct {
	ID      string `gorm:"primaryKey;size:64"`
	Started int64  `gorm:"not null"`
}

func (assetBuild) TableName() string { return "asset_builds" }

func init() {
	register(Migration{Version: 180, Name: "build_assets", Up: func(tx *gorm.DB) error {
		return tx.Migrator().CreateTable(&buildAsset{}, &assetBuild{})
	}})
}
