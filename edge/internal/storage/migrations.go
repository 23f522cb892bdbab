package storage

import (
	"fmt"
	"sort"
	"time"

	"gorm.io/gorm"
)

// Migration is one versioned, forward-only schema change. Versions are
// applied in order, once, and recorded in schema_migrations. Never edit a
// migration that has shipped: add a new one.
type Migration struct {
	Version int
	Name    string
	Up      func(tx *gorm.DB) error
}

// migrations is the schema's history. Each feature appends its own entries
// (with the next free version number) in its own file of this package.
var migrations []Migration

// register adds migrations; called from the init of each migrate_*.go file.
func register(ms ...Migration) { migrations = append(migrations, ms...) }

type schemaMigration struct {
	Version   int `gorm:"primaryKey;autoIncrement:false"`
	Name      string
	AppliedAt time.Time
}

func (schemaMigration) TableName() string { return "schema_migrations" }

func (db *DB) migrate() error {
	if err := db.AutoMigrate(&schemaMigration{}); err != nil {
		return fmt.Errorf("storage: schema_migrations: %w", err)
	}
	ms := append([]Migration(nil), migrations...)
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i, m := range ms {
		if i > 0 && ms[i-1].Version == m.Version {
			return fmt.Errorf("storage: two migrations with version %d", m.Version)
		}
		err := db.Transaction(func(tx *gorm.DB) error {
			var n int64
			if err := tx.Model(&schemaMigration{}).Where("version = ?", m.Version).Count(&n).Error; err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if err := m.Up(tx); err != nil {
				return err
			}
			return tx.Create(&schemaMigration{Version: m.Version, Name: m.Name, AppliedAt: time.Now().UTC()}).Error
		})
		if err != nil {
			return fmt.Errorf("storage: migration %d %s: %w", m.Version, m.Name, err)
		}
	}
	return nil
}
