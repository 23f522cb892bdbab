// Package stafftest gives tests staff members and studio sessions without
// the second-factor ceremonies (those are tested in internal/staff): other
// packages' tests of studio endpoints sign in with it.
//
//	cookie := stafftest.SignIn(t, db, "ed@example.com", staff.Editor)
//	req.AddCookie(cookie)
package stafftest

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/token"
)

// Account makes an account with the address (unless one exists) and
// returns its id. Its password is unusable: sign in with SignIn.
func Account(t testing.TB, db *storage.DB, email string) uint64 {
	t.Helper()
	var id uint64
	q := db.Table("accounts").Where("lower(email) = ?", strings.ToLower(email))
	var ids []uint64
	if err := q.Pluck("id", &ids).Error; err != nil {
		t.Fatal(err)
	}
	if len(ids) == 1 {
		return ids[0]
	}
	now := time.Now().UTC()
	row := map[string]any{"name": strings.Split(email, "@")[0], "email": email, "password_hash": "!", "status": "account_created",
		"created_at": now, "updated_at": now}
	if err := db.Table("accounts").Create(row).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Table("accounts").Where("email = ?", email).Pluck("id", &ids).Error; err != nil || len(ids) != 1 {
		t.Fatalf("account %s: %v", email, err)
	}
	id = ids[0]
	return id
}

// Grant makes the account of email (made if missing) a member of role, as
// the operator's command does.
func Grant(t testing.TB, db *storage.DB, email string, role staff.Role) uint64 {
	t.Helper()
	id := Account(t, db, email)
	if _, err := staff.NewDirectory(db).Grant(context.Background(), email, role, staff.Change{Command: true, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	return id
}

// SignIn grants role to email (role None: no grant) and returns the cookie
// of a fresh studio session for it, as a passkey sign-in would open.
func SignIn(t testing.TB, db *storage.DB, email string, role staff.Role) *http.Cookie {
	t.Helper()
	id := Account(t, db, email)
	if role != staff.None {
		Grant(t, db, email, role)
	}
	return Session(t, db, id, time.Now().UTC(), 8*time.Hour)
}

// Session stores a studio session of the account whose second factor was
// proved at verifiedAt, and returns its cookie.
func Session(t testing.TB, db *storage.DB, accountID uint64, verifiedAt time.Time, ttl time.Duration) *http.Cookie {
	t.Helper()
	secret := token.New()
	row := map[string]any{"id": token.Hash(secret), "account_id": accountID, "created_at": verifiedAt, "expires_at": verifiedAt.Add(ttl),
		"verified_at": verifiedAt, "method": staff.MethodPasskey, "credential_id": "", "client_ip": "127.0.0.1"}
	if err := db.Table("staff_sessions").Create(row).Error; err != nil {
		t.Fatal(err)
	}
	return &http.Cookie{Name: staff.CookieName, Value: secret, Path: "/"}
}
