package storage

import (
	"time"

	"gorm.io/gorm"
)

// auditEntry is migration 221's table (frozen copy of audit.Entry): the
// append-only record of every studio action. The site's code has no path
// that updates or deletes a row, and the database refuses both too
// (triggers below), so a bug or an injected statement cannot rewrite
// history either.
type auditEntry struct {
	ID       uint64    `gorm:"primaryKey;autoIncrement"`
	At       time.Time `gorm:"not null;index:idx_audit_entries_at"`
	ActorID  uint64    `gorm:"not null;default:0;index:idx_audit_entries_actor"`
	Actor    string    `gorm:"size:320;not null;default:''"`
	Action   string    `gorm:"size:64;not null;index:idx_audit_entries_action"`
	ItemType string    `gorm:"size:32;not null;default:''"`
	ItemID   string    `gorm:"size:200;not null;default:''"`
	Revision int64     `gorm:"not null;default:0"`
	Detail   string    `gorm:"size:2000;not null;default:''"`
	ClientIP string    `gorm:"column:client_ip;size:64;not null;default:''"`
}

func (auditEntry) TableName() string { return "audit_entries" }

func init() {
	register(Migration{Version: 221, Name: "audit_entries", Up: func(tx *gorm.DB) error {
		if err := tx.Migrator().CreateTable(&auditEntry{}); err != nil {
			return err
		}
		var stmts []string
		if tx.Dialector.Name() == "postgres" {
			stmts = []string{
				`CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
				BEGIN RAISE EXCEPTION 'audit_entries is append-only'; END $$`,
				`CREATE TRIGGER audit_entries_no_update BEFORE UPDATE OR DELETE ON audit_entries
				FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only()`,
				`CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
				FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only()`,
			}
		} else {
			stmts = []string{
				`CREATE TRIGGER audit_entries_no_update BEFORE UPDATE ON audit_entries
				BEGIN SELECT RAISE(ABORT, 'audit_entries is append-only'); END`,
				`CREATE TRIGGER audit_entries_no_delete BEFORE DELETE ON audit_entries
				BEGIN SELECT RAISE(ABORT, 'audit_entries is append-only'); END`,
			}
		}
		for _, q := range stmts {
			if err := tx.Exec(q).Error; err != nil {
				return err
			}
		}
		return nil
	}})
}
