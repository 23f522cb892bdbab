package storage

import (
	"sort"
	"time"

	"gorm.io/gorm"
)

// ApplyBefore applies, on an empty database, every migration older than
// version, as an edge of that time would have left it (tests of a later
// migration's data step).
func ApplyBefore(db *gorm.DB, version int) error {
	if err := db.AutoMigrate(&schemaMigration{}); err != nil {
		return err
	}
	ms := append([]Migration(nil), migrations...)
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for _, m := range ms {
		if m.Version >= version {
			break
		}
		if err := db.Transaction(func(tx *gorm.DB) error {
			if err := m.Up(tx); err != nil {
				return err
			}
			return tx.Create(&schemaMigration{Version: m.Version, Name: m.Name, AppliedAt: time.Now().UTC()}).Error
		}); err != nil {
			return err
		}
	}
	return nil
}
