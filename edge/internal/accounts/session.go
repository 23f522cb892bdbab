package accounts

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"time"

	"gorm.io/gorm"

	"omnibus/edge/internal/token"
	"omnibus/shared"
)

// CookieName is the session cookie (opaque; HttpOnly; SameSite=Lax; Secure
// on https). The page cache bypasses any request carrying it.
var CookieName = shared.HTTP.SessionCookie

// touchEvery bounds how often a session's LastSeenAt is written: at most
// once a minute per session, not on every request.
const touchEvery = time.Minute

// Session is one signed-in browser (table made by storage migration 4). ID
// is the SHA-256 of the cookie's token, never the token itself.
type Session struct {
	ID         string `gorm:"primaryKey"`
	AccountID  uint64
	CreatedAt  time.Time
	LastSeenAt time.Time
}

// TableName keeps the model on migration 4's table.
func (Session) TableName() string { return "sessions" }

// validToken checks a cookie's shape before any database lookup.
func validToken(t string) bool {
	if len(t) != token.Len {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(t)
	return err == nil
}

// startSession signs acct in on this browser: a new session (a new id, so a
// session fixed before sign-in is worthless), the old one of this browser
// deleted, the cookie set. Expired sessions of anyone are pruned on the way.
func (s *Service) startSession(ctx context.Context, w http.ResponseWriter, r *http.Request, acct *Account) error {
	secret := token.New()
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error { return s.createSession(tx, r, acct, secret) })
	if err != nil {
		return err
	}
	s.setCookie(w, secret)
	return nil
}

// createSession stores a session of token for acct in tx (replacing this
// browser's old one); the caller sets the cookie once tx has committed.
func (s *Service) createSession(tx *gorm.DB, r *http.Request, acct *Account, secret string) error {
	now := s.now()
	if old, err := r.Cookie(CookieName); err == nil && validToken(old.Value) {
		if err := tx.Delete(&Session{}, "id = ?", token.Hash(old.Value)).Error; err != nil {
			return err
		}
	}
	if err := tx.Delete(&Session{}, "last_seen_at < ?", now.Add(-s.opt.SessionTTL)).Error; err != nil {
		return err
	}
	return tx.Create(&Session{ID: token.Hash(secret), AccountID: acct.ID, CreatedAt: now, LastSeenAt: now}).Error
}

// current is the signed-in account of this request, or nil. A session idle
// for longer than SessionTTL is deleted and does not count. Activity moves
// the idle deadline (and the cookie's Max-Age) forward, at most once a minute.
func (s *Service) current(ctx context.Context, w http.ResponseWriter, r *http.Request) (*Account, error) {
	c, err := r.Cookie(CookieName)
	if err != nil || !validToken(c.Value) {
		return nil, nil
	}
	id := token.Hash(c.Value)
	// A cookie whose session is gone is cleared, so the browser stops
	// sending it (and its pages can be served from the cache again).
	gone := func() (*Account, error) {
		if w != nil {
			s.clearCookie(w)
		}
		return nil, nil
	}
	var sess Session
	err = s.db.WithContext(ctx).First(&sess, "id = ?", id).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return gone()
	}
	if err != nil {
		return nil, err
	}
	now := s.now()
	if now.Sub(sess.LastSeenAt) > s.opt.SessionTTL {
		if err := s.db.WithContext(ctx).Delete(&Session{}, "id = ?", id).Error; err != nil {
			return nil, err
		}
		return gone()
	}
	var acct Account
	err = s.db.WithContext(ctx).First(&acct, sess.AccountID).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if now.Sub(sess.LastSeenAt) >= touchEvery {
		if err := s.db.WithContext(ctx).Model(&Session{}).Where("id = ?", id).Update("last_seen_at", now).Error; err != nil {
			return nil, err
		}
		if w != nil {
			s.setCookie(w, c.Value)
		}
	}
	return &acct, nil
}

// endSession deletes this browser's session and clears the cookie.
func (s *Service) endSession(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	if c, err := r.Cookie(CookieName); err == nil && validToken(c.Value) {
		if err := s.db.WithContext(ctx).Delete(&Session{}, "id = ?", token.Hash(c.Value)).Error; err != nil {
			return err
		}
	}
	s.clearCookie(w)
	return nil
}

func (s *Service) clearCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: s.secure(), SameSite: http.SameSiteLaxMode})
}

func (s *Service) setCookie(w http.ResponseWriter, secret string) {
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: secret, Path: "/",
		MaxAge:   int(s.opt.SessionTTL / time.Second),
		HttpOnly: true, Secure: s.secure(), SameSite: http.SameSiteLaxMode,
	})
}

func (s *Service) secure() bool { return s.public.Scheme == "https" }

// Current is the signed-in account of r, or nil: the hook other packages
// (billing) use. w may be nil; with it an expired cookie is cleared.
func (s *Service) Current(w http.ResponseWriter, r *http.Request) (*Account, error) {
	return s.current(r.Context(), w, r)
}

// SignedIn is the signed-in account of r and when this browser signed in
// (its session's start: a password or Google sign-in), for the studio's
// enrolment, which needs a recent one. w may be nil.
func (s *Service) SignedIn(w http.ResponseWriter, r *http.Request) (id uint64, at time.Time, ok bool) {
	acct, err := s.current(r.Context(), w, r)
	if err != nil || acct == nil {
		return 0, time.Time{}, false
	}
	c, err := r.Cookie(CookieName)
	if err != nil {
		return 0, time.Time{}, false
	}
	var sess Session
	if err := s.db.WithContext(r.Context()).Take(&sess, "id = ?", token.Hash(c.Value)).Error; err != nil {
		return 0, time.Time{}, false
	}
	return acct.ID, sess.CreatedAt, true
}
