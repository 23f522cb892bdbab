package staff

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

// CookieName is the studio session's cookie (shared/http.json).
var CookieName = shared.HTTP.StaffSessionCookie

// Session methods: how the second factor was proved.
const (
	MethodPasskey  = "passkey"
	MethodTOTP     = "totp"
	MethodRecovery = "recovery"
)

// session is one studio session (storage migration 220).
type session struct {
	ID           string `gorm:"primaryKey"`
	AccountID    uint64
	CreatedAt    time.Time
	ExpiresAt    time.Time
	VerifiedAt   time.Time
	Method       string
	CredentialID string
	ClientIP     string
}

func (session) TableName() string { return "staff_sessions" }

// Session is the studio session of a request, as the middleware found it.
type Session struct {
	ID         string // the token's hash
	Member     Member
	VerifiedAt time.Time
	ExpiresAt  time.Time
	Method     string
}

func validToken(t string) bool {
	if len(t) != token.Len {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(t)
	return err == nil
}

// Open starts a studio session for the account after its second factor
// (method, and the passkey's credential id), replacing this browser's
// previous one, and sets the cookie. Expired sessions of anyone are pruned.
func (s *Service) Open(ctx context.Context, w http.ResponseWriter, r *http.Request, accountID uint64, method, credentialID, clientIP string) error {
	secret := token.New()
	now := s.now()
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if c, err := r.Cookie(CookieName); err == nil && validToken(c.Value) {
			if err := tx.Delete(&session{}, "id = ?", token.Hash(c.Value)).Error; err != nil {
				return err
			}
		}
		if err := tx.Delete(&session{}, "expires_at < ?", now).Error; err != nil {
			return err
		}
		return tx.Create(&session{ID: token.Hash(secret), AccountID: accountID, CreatedAt: now, ExpiresAt: now.Add(s.opt.SessionTTL),
			VerifiedAt: now, Method: method, CredentialID: credentialID, ClientIP: clientIP}).Error
	})
	if err != nil {
		return err
	}
	s.setCookie(w, secret, s.opt.SessionTTL)
	return nil
}

// current is the request's studio session with its member, or nil.
// Expired sessions, and sessions of accounts that no longer have a role,
// do not count.
func (s *Service) current(ctx context.Context, r *http.Request) (*Session, error) {
	c, err := r.Cookie(CookieName)
	if err != nil || !validToken(c.Value) {
		return nil, nil
	}
	var sess session
	err = s.db.WithContext(ctx).Take(&sess, "id = ?", token.Hash(c.Value)).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !s.now().Before(sess.ExpiresAt) {
		return nil, nil
	}
	m, err := s.Members.Lookup(ctx, sess.AccountID)
	if err != nil {
		return nil, err
	}
	if m.Role == None {
		return nil, nil
	}
	return &Session{ID: sess.ID, Member: m, VerifiedAt: sess.VerifiedAt, ExpiresAt: sess.ExpiresAt, Method: sess.Method}, nil
}

// Close ends this browser's studio session and clears the cookie.
func (s *Service) Close(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	if c, err := r.Cookie(CookieName); err == nil && validToken(c.Value) {
		if err := s.db.WithContext(ctx).Delete(&session{}, "id = ?", token.Hash(c.Value)).Error; err != nil {
			return err
		}
	}
	s.setCookie(w, "", -1)
	return nil
}

// markVerified records a second-factor re-check on the session.
func (s *Service) markVerified(ctx context.Context, id string) error {
	return s.db.WithContext(ctx).Model(&session{}).Where("id = ?", id).Update("verified_at", s.now()).Error
}

// EndSessions ends every studio session of an account (an admin's revoke,
// a lost device); the count ended.
func (s *Service) EndSessions(ctx context.Context, accountID uint64) (int64, error) {
	res := s.db.WithContext(ctx).Delete(&session{}, "account_id = ?", accountID)
	return res.RowsAffected, res.Error
}

func (s *Service) setCookie(w http.ResponseWriter, value string, ttl time.Duration) {
	maxAge := int(ttl / time.Second)
	if ttl < 0 {
		maxAge = -1
	}
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, Secure: s.public.Scheme == "https", SameSite: http.SameSiteStrictMode,
	})
}
