package staff

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"omnibus/edge/internal/audit"
	"omnibus/edge/internal/storage"
)

// Member is a staff member: the account, its address and its role.
type Member struct {
	AccountID uint64 `json:"accountId"`
	Email     string `json:"email"`
	Role      Role   `json:"role"`
}

// row is one staff_members row (storage migration 220).
type row struct {
	AccountID   uint64 `gorm:"primaryKey;autoIncrement:false"`
	Role        string
	GrantedBy   string
	GrantedAt   time.Time
	Reason      string
	TOTPAllowed bool `gorm:"column:totp_allowed"`
}

func (row) TableName() string { return "staff_members" }

// Listed is a member as the list shows them: with who granted the role,
// when and why, and whether TOTP is allowed.
type Listed struct {
	Member
	GrantedBy   string    `json:"grantedBy"`
	GrantedAt   time.Time `json:"grantedAt"`
	Reason      string    `json:"reason"`
	TOTPAllowed bool      `json:"totpAllowed"`
	Passkeys    int       `json:"passkeys"`
}

// Errors of Grant and Revoke.
var (
	ErrNoAccount = errors.New("no account with that e-mail address")
	ErrNotStaff  = errors.New("that account has no staff role")
	// ErrFirstAdmin refuses a grant of admin in the studio while no admin
	// exists, and the studio cannot reach that state anyway: the first
	// admin is made only by the operator's command.
	ErrFirstAdmin = errors.New("the first admin can only be made with the command edge staff grant EMAIL --role admin")
	// ErrLastAdmin refuses to revoke or lower the last admin from the
	// studio (nobody could grant again without the operator).
	ErrLastAdmin = errors.New("the last admin cannot be revoked or lowered in the studio: make another admin first, or use the command")
)

// Directory reads and changes the staff_members table.
type Directory struct {
	db  *storage.DB
	now func() time.Time
}

// NewDirectory is the directory on db.
func NewDirectory(db *storage.DB) *Directory {
	return &Directory{db: db, now: func() time.Time { return time.Now().UTC() }}
}

// Lookup is the member of an account; Role None when it has no role.
func (d *Directory) Lookup(ctx context.Context, accountID uint64) (Member, error) {
	var r struct {
		Email string
		Role  string
	}
	err := d.db.WithContext(ctx).Table("staff_members").Select("accounts.email AS email, staff_members.role AS role").
		Joins("JOIN accounts ON accounts.id = staff_members.account_id").
		Where("staff_members.account_id = ?", accountID).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Member{AccountID: accountID}, nil
	}
	if err != nil {
		return Member{}, err
	}
	role, err := ParseRole(r.Role)
	if err != nil {
		return Member{}, err
	}
	return Member{AccountID: accountID, Email: r.Email, Role: role}, nil
}

// List is every member, by e-mail address.
func (d *Directory) List(ctx context.Context) ([]Listed, error) {
	var rows []struct {
		AccountID   uint64
		Role        string
		GrantedBy   string
		GrantedAt   time.Time
		Reason      string
		TOTPAllowed bool `gorm:"column:totp_allowed"`
		Email       string
		Passkeys    int
	}
	err := d.db.WithContext(ctx).Table("staff_members").
		Select("staff_members.*, accounts.email AS email, (SELECT count(*) FROM staff_passkeys WHERE staff_passkeys.account_id = staff_members.account_id) AS passkeys").
		Joins("JOIN accounts ON accounts.id = staff_members.account_id").Order("accounts.email").Find(&rows).Error
	if err != nil {
		return nil, err
	}
	out := make([]Listed, 0, len(rows))
	for _, r := range rows {
		role, _ := ParseRole(r.Role)
		out = append(out, Listed{Member: Member{AccountID: r.AccountID, Email: r.Email, Role: role},
			GrantedBy: r.GrantedBy, GrantedAt: r.GrantedAt, Reason: r.Reason, TOTPAllowed: r.TOTPAllowed, Passkeys: r.Passkeys})
	}
	return out, nil
}

// accountByEmail is the id of the account with that address (any case).
func accountByEmail(tx *gorm.DB, email string) (uint64, string, error) {
	var a struct {
		ID    uint64
		Email string
	}
	err := tx.Table("accounts").Select("id, email").Where("lower(email) = ?", strings.ToLower(strings.TrimSpace(email))).Take(&a).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return 0, "", ErrNoAccount
	}
	return a.ID, a.Email, err
}

// Change is a grant or a revoke: by whom (an admin's Who, or the command's
// "edge staff command"), why.
type Change struct {
	By     audit.Who
	Reason string
	// Command is true for the operator's command, the only place the first
	// admin can be made.
	Command bool
}

// Grant gives the account of email the role (replacing any other), and
// records it in the audit log in the same transaction.
func (d *Directory) Grant(ctx context.Context, email string, role Role, ch Change) (Member, error) {
	if role < Viewer || role > Admin {
		return Member{}, fmt.Errorf("cannot grant %s", role)
	}
	var m Member
	err := d.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		id, addr, err := accountByEmail(tx, email)
		if err != nil {
			return err
		}
		m = Member{AccountID: id, Email: addr, Role: role}
		if !ch.Command {
			if role == Admin {
				var admins int64
				if err := tx.Table("staff_members").Where("role = ?", Admin.String()).Count(&admins).Error; err != nil {
					return err
				}
				if admins == 0 {
					return ErrFirstAdmin
				}
			}
			if err := lastAdminCheck(tx, id, role); err != nil {
				return err
			}
		}
		by := ch.By.Actor
		if ch.Command {
			by = "edge staff command"
		}
		r := row{AccountID: id, Role: role.String(), GrantedBy: by, GrantedAt: d.now(), Reason: ch.Reason}
		res := tx.Model(&row{}).Where("account_id = ?", id).Updates(map[string]any{
			"role": r.Role, "granted_by": r.GrantedBy, "granted_at": r.GrantedAt, "reason": r.Reason})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			if err := tx.Create(&r).Error; err != nil {
				return err
			}
		}
		return audit.RecordTx(ctx, tx, d.entry(audit.RoleGranted, m, role.String(), ch))
	})
	return m, err
}

// Revoke takes away the account's role, ends its studio sessions, and
// records it; its passkeys stay (a later grant finds them) unless an admin
// revokes them too.
func (d *Directory) Revoke(ctx context.Context, email string, ch Change) (Member, error) {
	var m Member
	err := d.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		id, addr, err := accountByEmail(tx, email)
		if err != nil {
			return err
		}
		m = Member{AccountID: id, Email: addr}
		var r row
		if err := tx.Take(&r, "account_id = ?", id).Error; errors.Is(err, gorm.ErrRecordNotFound) {
			return ErrNotStaff
		} else if err != nil {
			return err
		}
		m.Role, _ = ParseRole(r.Role)
		if !ch.Command {
			if err := lastAdminCheck(tx, id, None); err != nil {
				return err
			}
		}
		if err := tx.Delete(&row{}, "account_id = ?", id).Error; err != nil {
			return err
		}
		if err := tx.Table("staff_sessions").Where("account_id = ?", id).Delete(nil).Error; err != nil {
			return err
		}
		return audit.RecordTx(ctx, tx, d.entry(audit.RoleRevoked, m, "was "+m.Role.String(), ch))
	})
	return m, err
}

// lastAdminCheck refuses a studio change that would leave no admin.
func lastAdminCheck(tx *gorm.DB, id uint64, to Role) error {
	if to == Admin {
		return nil
	}
	var r row
	if err := tx.Take(&r, "account_id = ?", id).Error; err != nil || r.Role != Admin.String() {
		return nil
	}
	var others int64
	if err := tx.Table("staff_members").Where("role = ? AND account_id <> ?", Admin.String(), id).Count(&others).Error; err != nil {
		return err
	}
	if others == 0 {
		return ErrLastAdmin
	}
	return nil
}

func (d *Directory) entry(action string, m Member, detail string, ch Change) audit.Entry {
	e := audit.Entry{Action: action, ItemType: "member", ItemID: m.Email, Detail: detail,
		Actor: ch.By.Actor, ActorID: ch.By.ActorID, ClientIP: ch.By.ClientIP}
	if ch.Reason != "" {
		e.Detail += ": " + ch.Reason
	}
	if ch.Command {
		e.Actor = "edge staff command"
	}
	return e
}
