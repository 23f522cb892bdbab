// Package audit is the studio's record of who did what: an append-only log
// of every staff action (sign-ins, failed second factors, saves, previews,
// publishes, schedules, unpublishes, rollbacks, redirect and campaign-link
// changes, role grants and revokes), each with who, what, which item and
// revision, when, and the client address.
//
// Append-only: this package has no update or delete, no other package of
// the site writes the table, and the database refuses UPDATE, DELETE (and
// TRUNCATE on PostgreSQL) by trigger (storage migration 221). Entries are
// read through the admin's list and CSV export (api.go).
//
// A handler records through the request's context, which the staff
// middleware (staff.Require) fills with the log, the member and the client
// address:
//
//	audit.Record(c.Request().Context(), audit.Entry{Action: audit.Publish, ItemType: "blog", ItemID: slug, Revision: 7})
//
// and inside its own transaction, so the change and its record commit
// together (never a change without its record), with RecordTx.
package audit

import (
	"context"
	"errors"
	"strings"
	"time"

	"gorm.io/gorm"

	"omnibus/edge/internal/storage"
)

// Actions. Other packages may record actions of their own (a short,
// lower-case, dotted name); these are the ones the studio has today.
const (
	SignIn            = "signin"
	SignInFailed      = "signin.failed"
	SignOut           = "signout"
	PasskeyEnrolled   = "passkey.enrolled"
	PasskeyRevoked    = "passkey.revoked"
	TOTPEnrolled      = "totp.enrolled"
	RecoveryCodeUsed  = "recovery.used"
	SessionsRevoked   = "sessions.revoked"
	RoleGranted       = "role.granted"
	RoleRevoked       = "role.revoked"
	TOTPAllowed       = "totp.allowed"
	TOTPDisallowed    = "totp.disallowed"
	Save              = "save"
	PreviewShared     = "preview.shared"
	PreviewRevoked    = "preview.revoked"
	Publish           = "publish"
	Schedule          = "schedule"
	Unpublish         = "unpublish"
	Rollback          = "rollback"
	RedirectChanged   = "redirect.changed"
	CampaignLinkSaved = "campaign-link.changed"
	AuditExported     = "audit.exported"
)

// Actions is every action above, for the log's filter to offer.
var Actions = []string{SignIn, SignInFailed, SignOut, PasskeyEnrolled, PasskeyRevoked, TOTPEnrolled, RecoveryCodeUsed,
	SessionsRevoked, RoleGranted, RoleRevoked, TOTPAllowed, TOTPDisallowed, Save, PreviewShared, PreviewRevoked,
	Publish, Schedule, Unpublish, Rollback, RedirectChanged, CampaignLinkSaved, AuditExported}

// Entry is one record. Actor, ActorID and ClientIP are filled from the
// context when empty (Record); At is the time of recording when zero.
type Entry struct {
	ID       uint64    `json:"id" gorm:"primaryKey;autoIncrement"`
	At       time.Time `json:"at"`
	ActorID  uint64    `json:"actorId"`
	Actor    string    `json:"actor"`
	Action   string    `json:"action"`
	ItemType string    `json:"itemType"`
	ItemID   string    `json:"itemId"`
	Revision int64     `json:"revision"`
	Detail   string    `json:"detail"`
	ClientIP string    `json:"clientIp" gorm:"column:client_ip"`
}

// TableName is migration 221's table.
func (Entry) TableName() string { return "audit_entries" }

// Field caps (the table's sizes): longer text is cut, never refused, so an
// action is not lost to its record being long.
const (
	maxActor  = 320
	maxAction = 64
	maxType   = 32
	maxItem   = 200
	maxDetail = 2000
	maxIP     = 64
)

// ErrNoLog is Record without a log in the context: a handler outside
// staff.Require. It is a bug, and the caller must fail the action.
var ErrNoLog = errors.New("audit: no log in the request's context (the handler is not behind staff.Require)")

// Log writes entries to a database.
type Log struct {
	db  *storage.DB
	now func() time.Time
}

// New is the log on db.
func New(db *storage.DB) *Log { return &Log{db: db, now: func() time.Time { return time.Now().UTC() }} }

// Who is the actor and client address a context carries (set by the
// staff middleware with WithActor).
type Who struct {
	ActorID  uint64
	Actor    string
	ClientIP string
}

type logKey struct{}
type whoKey struct{}

// WithLog returns ctx carrying l, for Record.
func WithLog(ctx context.Context, l *Log) context.Context { return context.WithValue(ctx, logKey{}, l) }

// WithActor returns ctx carrying who acts, for Record.
func WithActor(ctx context.Context, w Who) context.Context {
	return context.WithValue(ctx, whoKey{}, w)
}

// From is the log ctx carries, or nil.
func From(ctx context.Context) *Log {
	l, _ := ctx.Value(logKey{}).(*Log)
	return l
}

// Record appends e to the context's log, filling the actor and client
// address from the context where e leaves them empty.
func Record(ctx context.Context, e Entry) error {
	l := From(ctx)
	if l == nil {
		return ErrNoLog
	}
	return l.Record(ctx, e)
}

// RecordTx appends e inside tx (the caller's transaction: the change and
// its record commit or roll back together), filling the actor and client
// address from ctx where e leaves them empty.
func RecordTx(ctx context.Context, tx *gorm.DB, e Entry) error {
	now := time.Now().UTC()
	if l := From(ctx); l != nil {
		now = l.now()
	}
	e = fill(ctx, e, now)
	return tx.Create(&e).Error
}

// Record appends e.
func (l *Log) Record(ctx context.Context, e Entry) error {
	e = fill(ctx, e, l.now())
	return l.db.WithContext(ctx).Create(&e).Error
}

func fill(ctx context.Context, e Entry, now time.Time) Entry {
	if w, ok := ctx.Value(whoKey{}).(Who); ok {
		if e.Actor == "" && e.ActorID == 0 {
			e.Actor, e.ActorID = w.Actor, w.ActorID
		}
		if e.ClientIP == "" {
			e.ClientIP = w.ClientIP
		}
	}
	if e.At.IsZero() {
		e.At = now
	}
	e.ID = 0 // always a new row
	e.At = e.At.UTC()
	e.Actor = cut(e.Actor, maxActor)
	e.Action = cut(e.Action, maxAction)
	e.ItemType = cut(e.ItemType, maxType)
	e.ItemID = cut(e.ItemID, maxItem)
	e.Detail = cut(e.Detail, maxDetail)
	e.ClientIP = cut(e.ClientIP, maxIP)
	return e
}

// cut shortens s to at most n bytes on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !validEnd(s) {
		s = s[:len(s)-1]
	}
	return s
}

func validEnd(s string) bool { return strings.ToValidUTF8(s, "") == s }
