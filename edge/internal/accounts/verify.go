package accounts

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"omnibus/edge/internal/mail"
)

// verifyTTL is how long an e-mailed confirmation link works.
const verifyTTL = 24 * time.Hour

// EmailVerification is one e-mailed confirmation link (table made by storage
// migration 90), keyed by the SHA-256 of its token.
type EmailVerification struct {
	TokenHash string `gorm:"primaryKey"`
	AccountID uint64
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    *time.Time
}

// TableName keeps the model on migration 90's table.
func (EmailVerification) TableName() string { return "email_verifications" }

// sendVerification mails a single-use link that proves the address of a
// freshly registered account. Errors are logged: the visitor was answered.
func (s *Service) sendVerification(acct Account) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	token := newToken()
	now := s.now()
	if err := s.db.WithContext(ctx).Delete(&EmailVerification{}, "expires_at < ?", now.Add(-24*time.Hour)).Error; err != nil {
		slog.Warn("accounts: prune confirmation links", "err", err)
	}
	if err := s.db.WithContext(ctx).Create(&EmailVerification{TokenHash: tokenHash(token), AccountID: acct.ID, CreatedAt: now, ExpiresAt: now.Add(verifyTTL)}).Error; err != nil {
		slog.Error("accounts: store confirmation link", "err", err, "account", acct.ID)
		return
	}
	link := s.public.JoinPath("/api/v1/oaccount/verify-email")
	link.RawQuery = url.Values{"token": {token}}.Encode()
	s.mailLink(ctx, acct, content.VerifyEmail, link.String())
}

// mailLink fills a template with the account's name and a link and sends it.
// Neither the link nor the body is ever logged.
func (s *Service) mailLink(ctx context.Context, acct Account, t mailTemplate, link string) {
	if s.mail == nil {
		slog.ErrorContext(ctx, "accounts: no mail sender; link not sent", "account", acct.ID, "subject", t.Subject)
		return
	}
	body := mail.Fill(t.Body, map[string]string{"name": acct.Name, "link": link})
	if err := s.mail.Send(ctx, mail.Message{To: acct.Email, Subject: t.Subject, Text: body}); err != nil {
		slog.ErrorContext(ctx, "accounts: send mail", "err", err, "account", acct.ID, "subject", t.Subject)
	}
}

// verifyEmail: GET /oaccount/verify-email?token=… (the link in the mail).
// Marks the account's address as proved, once per link, and answers with a
// 303 to /login?verified=1 (which sends a signed-in visitor on), or to
// /login?error=verifyInvalid.
func (s *Service) verifyEmail(c echo.Context) error {
	noStore(c.Response())
	c.Response().Header().Set("Referrer-Policy", "no-referrer")
	token := c.QueryParam("token")
	if !validToken(token) {
		return seeOther(c, "/login?error="+codeVerifyInvalid)
	}
	ctx := c.Request().Context()
	now := s.now()
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// Claim first (a write takes SQLite's lock before any read).
		res := tx.Model(&EmailVerification{}).Where("token_hash = ? AND used_at IS NULL AND expires_at > ?", tokenHash(token), now).Update("used_at", now)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected != 1 {
			return fail(http.StatusBadRequest, codeVerifyInvalid)
		}
		var v EmailVerification
		if err := tx.First(&v, "token_hash = ?", tokenHash(token)).Error; err != nil {
			return err
		}
		return tx.Model(&Account{}).Where("id = ? AND email_verified_at IS NULL", v.AccountID).
			Updates(map[string]any{"email_verified_at": now, "updated_at": now}).Error
	})
	var pb *problem
	if errors.As(err, &pb) {
		return seeOther(c, "/login?error="+pb.code)
	}
	if err != nil {
		slog.ErrorContext(ctx, "accounts: verify email", "err", err)
		return seeOther(c, "/login?error="+codeUnavailable)
	}
	return seeOther(c, "/login?verified=1")
}
