package accounts

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"omnibus/edge/internal/exchange"
	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/token"
)

// resetTTL is how long an e-mailed reset link works.
const resetTTL = time.Hour

// PasswordReset is one e-mailed reset link (table made by storage
// migration 5), keyed by the SHA-256 of its token.
type PasswordReset struct {
	TokenHash string `gorm:"primaryKey"`
	AccountID uint64
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    *time.Time
}

// TableName keeps the model on migration 5's table.
func (PasswordReset) TableName() string { return "password_resets" }

// forgotPassword: POST /hq/oaccount/forgotPassword {email}. The answer is the
// same whether or not an account exists (no enumeration) and does not wait
// for the mail; for a real account with a password or not, a single-use
// link valid for an hour is e-mailed.
func (s *Service) forgotPassword(c echo.Context) error {
	const page = "/forgot-password"
	f, p := read(c)
	if p != nil {
		return refuse(c, p, forms.State{Form: formForgot})
	}
	st := shown(formForgot, f, "email")
	if ok, wait := s.ResetByIP.Allow(c.Request().Context(), s.ResetByIP.Client(c.Request())); !ok {
		return limited(c, wait, st)
	}
	email, code := normaliseEmail(f["email"])
	if p := invalid("email", code); p != nil {
		return refuse(c, p, st)
	}
	// Per-address limit: quietly send nothing more, answer the same.
	if ok, _ := s.ResetByAccount.Allow(c.Request().Context(), email); ok {
		reqCtx := c.Request().Context()
		s.background(func() { s.sendReset(reqCtx, email) })
	}
	return exchange.Done(c, http.StatusOK, envelope{map[string]string{"message": Message(codeResetSent)}}, page+"?sent=1")
}

// sendReset makes a reset link for the account with this e-mail, if any, and
// mails it. Errors are logged: the visitor was already answered.
func (s *Service) sendReset(reqCtx context.Context, email string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(reqCtx), time.Minute)
	defer cancel()
	var acct Account
	err := s.db.WithContext(ctx).Where("email = ?", email).First(&acct).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return
	}
	if err != nil {
		slog.ErrorContext(ctx, "accounts: reset lookup", "err", err)
		return
	}
	secret := token.New()
	now := s.now()
	// Old links (used or expired a day ago) are of no use: prune them here.
	if err := s.db.WithContext(ctx).Delete(&PasswordReset{}, "expires_at < ?", now.Add(-24*time.Hour)).Error; err != nil {
		slog.WarnContext(ctx, "accounts: prune reset links", "err", err)
	}
	if err := s.db.WithContext(ctx).Create(&PasswordReset{TokenHash: token.Hash(secret), AccountID: acct.ID, CreatedAt: now, ExpiresAt: now.Add(resetTTL)}).Error; err != nil {
		slog.ErrorContext(ctx, "accounts: store reset", "err", err)
		return
	}
	link := s.public.JoinPath("/reset-password")
	link.RawQuery = url.Values{"token": {secret}}.Encode()
	s.mailLink(ctx, acct, content.ResetEmail, link.String())
}

// resetPassword: POST /hq/oaccount/resetPassword {token, password}. Sets the
// new password once per link, ends every session of the account and signs
// this browser in with a fresh one.
func (s *Service) resetPassword(c echo.Context) error {
	st := forms.State{Form: formReset} // the token stays in the page's address; nothing else is shown again
	f, p := read(c)
	if p != nil {
		return refuse(c, p, st)
	}
	if ok, wait := s.ResetByIP.Allow(c.Request().Context(), s.ResetByIP.Client(c.Request())); !ok {
		return limited(c, wait, st)
	}
	secret := f["token"]
	ctx := c.Request().Context()
	now := s.now()
	var acct Account
	// Read the link and its account, check and hash the new password (under
	// the hashing bound, outside any transaction), then claim the link and
	// write in one short transaction.
	var pr PasswordReset
	err := func() error {
		if !validToken(secret) {
			return fail(http.StatusBadRequest, codeResetInvalid)
		}
		err := s.db.WithContext(ctx).First(&pr, "token_hash = ?", token.Hash(secret)).Error
		if errors.Is(err, gorm.ErrRecordNotFound) || (err == nil && (pr.UsedAt != nil || now.After(pr.ExpiresAt))) {
			return fail(http.StatusBadRequest, codeResetInvalid)
		}
		if err != nil {
			return err
		}
		if err := s.db.WithContext(ctx).First(&acct, pr.AccountID).Error; err != nil {
			return err
		}
		if p := invalid("password", passwordProblem(f["password"], acct.Email, deref(acct.StoreName))); p != nil {
			return p
		}
		hash, p := s.hash(ctx, f["password"])
		if p != nil {
			return p
		}
		return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			// Claim the link: only one request can turn used_at from NULL.
			res := tx.Model(&PasswordReset{}).Where("token_hash = ? AND used_at IS NULL", pr.TokenHash).Update("used_at", now)
			if res.Error != nil {
				return res.Error
			}
			if res.RowsAffected != 1 {
				return fail(http.StatusBadRequest, codeResetInvalid)
			}
			// The link proves the address: the account is verified now.
			if err := tx.Model(&acct).Updates(map[string]any{"password_hash": hash, "email_verified_at": now, "updated_at": now}).Error; err != nil {
				return err
			}
			// Other links of this account die with this one; so do its sessions.
			if err := tx.Model(&PasswordReset{}).Where("account_id = ? AND used_at IS NULL", acct.ID).Update("used_at", now).Error; err != nil {
				return err
			}
			return tx.Delete(&Session{}, "account_id = ?", acct.ID).Error
		})
	}()
	var pb *problem
	if errors.As(err, &pb) {
		return refuse(c, pb, st)
	}
	if err != nil {
		slog.ErrorContext(ctx, "accounts: reset password", "err", err)
		return refuse(c, errUnavailable, st)
	}
	if err := s.startSession(ctx, c.Response(), c.Request(), &acct); err != nil {
		slog.ErrorContext(ctx, "accounts: session after reset", "err", err)
		return refuse(c, errUnavailable, forms.State{})
	}
	// Where the visitor lands says what just happened (their password
	// changed, every other session ended), with JavaScript or without.
	to := withNotice(s.Destination(acct.Status), codePasswordChanged)
	return exchange.Done(c, http.StatusOK, envelope{status{IsLoggedIn: true, OmnicustomerStatus: acct.Status, RedirectTo: to}}, to)
}

// noticeParam is the query parameter of a site page that names a message of
// shared/content/auth.json to show once on arrival (shared/routes.json lists
// its values).
const noticeParam = "notice"

// withNotice adds ?notice=code to a path of this site; another origin (the
// merchant app) is left as it is, as it shows none of this site's messages.
func withNotice(to, code string) string {
	if !strings.HasPrefix(to, "/") || strings.HasPrefix(to, "//") {
		return to
	}
	u, err := url.Parse(to)
	if err != nil {
		return to
	}
	q := u.Query()
	q.Set(noticeParam, code)
	u.RawQuery = q.Encode()
	return u.String()
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// resetLinkUsable reports whether the reset page's ?token= names a link
// that still works: known, unused, unexpired. A database error says yes
// (the form's post decides then).
func (s *Service) resetLinkUsable(r *http.Request) bool {
	secret := r.URL.Query().Get("token")
	if !validToken(secret) {
		return false
	}
	var pr PasswordReset
	err := s.db.WithContext(r.Context()).First(&pr, "token_hash = ?", token.Hash(secret)).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return false
	}
	return err != nil || (pr.UsedAt == nil && s.now().Before(pr.ExpiresAt))
}
