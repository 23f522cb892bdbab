package accounts

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/http/exchange"
	"omnibus/edge/internal/http/response"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/token"
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
func (s *Service) sendVerification(reqCtx context.Context, acct Account) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(reqCtx), time.Minute)
	defer cancel()
	secret := token.New()
	now := s.now()
	if err := s.db.WithContext(ctx).Delete(&EmailVerification{}, "expires_at < ?", now.Add(-24*time.Hour)).Error; err != nil {
		slog.WarnContext(ctx, "accounts: prune confirmation links", "err", err)
	}
	if err := s.db.WithContext(ctx).Create(&EmailVerification{TokenHash: token.Hash(secret), AccountID: acct.ID, CreatedAt: now, ExpiresAt: now.Add(verifyTTL)}).Error; err != nil {
		slog.ErrorContext(ctx, "accounts: store confirmation link", "err", err, "account", acct.ID)
		return
	}
	link := s.public.JoinPath("/api/v1/oaccount/verify-email")
	link.RawQuery = url.Values{"token": {secret}}.Encode()
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
	secret := c.QueryParam("token")
	if !validToken(secret) {
		return exchange.SeeOther(c, "/login?error="+codeVerifyInvalid)
	}
	ctx := c.Request().Context()
	now := s.now()
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// Claim first (a write takes SQLite's lock before any read).
		res := tx.Model(&EmailVerification{}).Where("token_hash = ? AND used_at IS NULL AND expires_at > ?", token.Hash(secret), now).Update("used_at", now)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected != 1 {
			return fail(http.StatusBadRequest, codeVerifyInvalid)
		}
		var v EmailVerification
		if err := tx.First(&v, "token_hash = ?", token.Hash(secret)).Error; err != nil {
			return err
		}
		return tx.Model(&Account{}).Where("id = ? AND email_verified_at IS NULL", v.AccountID).
			Updates(map[string]any{"email_verified_at": now, "updated_at": now}).Error
	})
	var pb *problem
	if errors.As(err, &pb) {
		return exchange.SeeOther(c, "/login?error="+pb.Code)
	}
	if err != nil {
		slog.ErrorContext(ctx, "accounts: verify email", "err", err)
		return exchange.SeeOther(c, "/login?error="+codeUnavailable)
	}
	return exchange.SeeOther(c, "/login?verified=1")
}

// resendVerification: POST /oaccount/verify-email/resend, by the signed-in
// merchant whose address is not confirmed yet (the welcome's "send the link
// again"): a new link to the account's address, at most three
// per ten minutes per account. JSON: 200 {data:{message}}; a form post
// without JavaScript: 303 to /contact-us?verify=sent (or =wait when
// limited), where the welcome says it. Signed out: 401, or 303 to /login.
func (s *Service) resendVerification(c echo.Context) error {
	noStore(c.Response())
	form := exchange.IsForm(c)
	acct, err := s.current(c.Request().Context(), c.Response(), c.Request())
	if err != nil {
		slog.ErrorContext(c.Request().Context(), "accounts: resend confirmation", "err", err)
		return refuse(c, errUnavailable, forms.State{})
	}
	if acct == nil {
		if form {
			return exchange.SeeOther(c, "/login")
		}
		return response.Error(c, http.StatusUnauthorized, Message("signedOut"))
	}
	if acct.EmailVerifiedAt == nil {
		if ok, wait := s.ResendByAccount.Allow(c.Request().Context(), strconv.FormatUint(acct.ID, 10)); !ok {
			if form {
				return exchange.SeeOther(c, contactPath+"?verify=wait")
			}
			return ratelimit.Refuse(c, wait)
		}
		a := *acct
		// The mail goes out after the answer: a context that outlives the
		// request but keeps its id for the log.
		reqCtx := context.WithoutCancel(c.Request().Context())
		s.background(func() { s.sendVerification(reqCtx, a) })
	}
	if form {
		return exchange.SeeOther(c, contactPath+"?verify=sent")
	}
	return response.OK(c, map[string]any{"data": map[string]string{"message": Message(codeVerifySent)}})
}
