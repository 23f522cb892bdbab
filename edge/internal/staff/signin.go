package staff

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"omnibus/edge/internal/audit"
	"omnibus/edge/internal/httpx/crossorigin"
	"omnibus/edge/internal/httpx/request"
	"omnibus/edge/internal/httpx/response"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/ratelimit"
)

// The studio's sign-in: a merchant sign-in (password or Google) first,
// which alone never opens the studio, then the second factor. Enrolling
// one needs a merchant sign-in of the last STAFF_ENROL_WINDOW and, when
// the member already has a second factor, a fresh studio session proved by
// it (a phished password cannot add the attacker's passkey); each
// enrolment is mailed to the member and recorded.

const (
	msgNoFirstFactor = "Sign in to your account on the site first."
	msgNotStaff      = "This account has no staff role."
	msgEnrolStale    = "For your security, sign in to your account again (password or Google), then add the passkey within a few minutes."
	msgEnrolProof    = "You already have a second factor: sign in to the studio with it first, then add another."
	msgNoPasskey     = "No passkey yet: add one first."
	msgFactorFailed  = "That did not verify. Try again."
	msgRateLimited   = "Too many attempts. Wait a little, then try again."
	msgTOTPOff       = "Codes from an authenticator app are not allowed for you: ask an admin, or use your passkey."
)

// registerSignIn adds the sign-in and enrolment endpoints (no studio
// session yet: each checks the merchant sign-in itself) and the re-check.
func (s *Service) registerSignIn(g *echo.Group) {
	same := crossorigin.Guard(s.opt.PublicURL, func(c echo.Context) error {
		return response.Error(c, http.StatusForbidden, msgCrossSite)
	})
	g.POST("/staff/sign-in/options", s.signInOptions, same)
	g.POST("/staff/sign-in/passkey", s.signInPasskey, same)
	g.POST("/staff/sign-in/totp", s.signInTOTP, same)
	g.POST("/staff/enrol/passkey/options", s.enrolOptions, same)
	g.POST("/staff/enrol/passkey", s.enrolPasskey, same)
	g.POST("/staff/enrol/totp", s.enrolTOTP, same)
	g.POST("/staff/enrol/totp/confirm", s.confirmTOTP, same)
	g.POST("/staff/session/recheck/options", s.recheckOptions, s.Require(Viewer))
	g.POST("/staff/session/recheck", s.recheck, s.Require(Viewer))
	g.GET("/staff/passkeys", s.listPasskeys, s.Require(Viewer))
}

// firstFactor is the member signed in on the site (merchant session) and
// when; it answers the refusal itself (ok false).
func (s *Service) firstFactor(c echo.Context) (Member, time.Time, bool, error) {
	c.Response().Header().Set("Cache-Control", "no-store")
	if s.opt.Account == nil {
		return Member{}, time.Time{}, false, c.JSON(http.StatusUnauthorized, refusal{ErrorDetail: msgNoFirstFactor})
	}
	id, at, ok := s.opt.Account(c.Response(), c.Request())
	if !ok {
		return Member{}, time.Time{}, false, c.JSON(http.StatusUnauthorized, refusal{ErrorDetail: msgNoFirstFactor})
	}
	m, err := s.Members.Lookup(c.Request().Context(), id)
	if err != nil {
		return Member{}, time.Time{}, false, response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	if m.Role == None {
		return Member{}, time.Time{}, false, response.Error(c, http.StatusForbidden, msgNotStaff)
	}
	return m, at, true, nil
}

// limit spends one second-factor attempt of the member and of the client;
// false when either is out (answered 429).
func (s *Service) limit(c echo.Context, m Member) (bool, error) {
	ctx := c.Request().Context()
	for _, l := range []struct {
		lim *ratelimit.Limiter
		key string
	}{{s.FactorByMember, "member:" + itoa(m.AccountID)}, {s.FactorByIP, s.FactorByIP.Client(c.Request())}} {
		if ok, retry := l.lim.Allow(ctx, l.key); !ok {
			// Not recorded: the refused guesses would make rows without
			// bound; the guesses that were checked are each recorded.
			response.RetryAfter(c, retry)
			return false, response.Error(c, http.StatusTooManyRequests, msgRateLimited)
		}
	}
	return true, nil
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

// record appends an entry as m from this request (no studio session yet).
func (s *Service) record(ctx context.Context, c echo.Context, m Member, e audit.Entry) {
	e.Actor, e.ActorID, e.ClientIP = m.Email, m.AccountID, request.ClientIP(c.Request())
	if err := s.Audit.Record(ctx, e); err != nil {
		s.log.ErrorContext(ctx, "staff: audit", "err", err, "action", e.Action)
	}
}

// readBody reads the (already size-limited) request body.
func readBody(c echo.Context) ([]byte, error) { return io.ReadAll(c.Request().Body) }

// signInOptions is POST /api/v1/staff/sign-in/options: the passkey request
// for navigator.credentials.get.
func (s *Service) signInOptions(c echo.Context) error {
	m, _, ok, err := s.firstFactor(c)
	if !ok {
		return err
	}
	opts, err := s.beginAssertion(c.Request().Context(), m, kindSignIn)
	if errors.Is(err, ErrNoPasskey) {
		return c.JSON(http.StatusConflict, map[string]any{"errorDetail": msgNoPasskey, "enrol": true})
	}
	if err != nil {
		return response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	return c.JSON(http.StatusOK, opts)
}

// signInPasskey is POST /api/v1/staff/sign-in/passkey with the
// authenticator's answer: opens the studio session.
func (s *Service) signInPasskey(c echo.Context) error {
	m, _, ok, err := s.firstFactor(c)
	if !ok {
		return err
	}
	if ok, err := s.limit(c, m); !ok {
		return err
	}
	body, err := readBody(c)
	if err != nil {
		return response.Error(c, http.StatusBadRequest, "The request could not be read.")
	}
	ctx := c.Request().Context()
	credID, err := s.finishAssertion(ctx, m, body, kindSignIn)
	if err != nil {
		return s.factorFailed(c, m, "passkey", err)
	}
	return s.opened(c, m, MethodPasskey, credID)
}

// factorFailed records and answers a refused second factor.
func (s *Service) factorFailed(c echo.Context, m Member, what string, err error) error {
	ctx := c.Request().Context()
	if !errors.Is(err, ErrChallenge) && !errors.Is(err, ErrClone) && !errors.Is(err, ErrUnverified) && !errors.Is(err, errCode) {
		s.log.ErrorContext(ctx, "staff: second factor", "err", err)
		return response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	s.record(ctx, c, m, audit.Entry{Action: audit.SignInFailed, Detail: what + ": " + err.Error()})
	return response.Error(c, http.StatusUnauthorized, msgFactorFailed)
}

// opened opens the studio session and records the sign-in.
func (s *Service) opened(c echo.Context, m Member, method, credID string) error {
	ctx := c.Request().Context()
	if err := s.Open(ctx, c.Response(), c.Request(), m.AccountID, method, credID, request.ClientIP(c.Request())); err != nil {
		return response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	s.record(ctx, c, m, audit.Entry{Action: audit.SignIn, Detail: method})
	return c.JSON(http.StatusOK, map[string]any{"email": m.Email, "role": m.Role, "method": method})
}

// mayEnrol checks an enrolment's preconditions: a recent merchant sign-in,
// and, for a member with a second factor already, a fresh studio session.
func (s *Service) mayEnrol(c echo.Context) (Member, bool, error) {
	m, at, ok, err := s.firstFactor(c)
	if !ok {
		return m, false, err
	}
	if s.now().Sub(at) > s.opt.EnrolWindow {
		return m, false, c.JSON(http.StatusUnauthorized, map[string]any{"errorDetail": msgEnrolStale, "signInAgain": true})
	}
	has, err := s.hasSecondFactor(c.Request().Context(), m.AccountID)
	if err != nil {
		return m, false, response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	if has {
		sess, err := s.current(c.Request().Context(), c.Request())
		if err != nil {
			return m, false, response.Error(c, http.StatusServiceUnavailable, msgBusy)
		}
		if sess == nil || sess.Member.AccountID != m.AccountID || s.now().Sub(sess.VerifiedAt) > s.opt.RecheckWindow {
			return m, false, c.JSON(http.StatusUnauthorized, refusal{ErrorDetail: msgEnrolProof, Reauthenticate: sess != nil})
		}
	}
	return m, true, nil
}

// hasSecondFactor: a passkey, or a confirmed TOTP secret.
func (s *Service) hasSecondFactor(ctx context.Context, accountID uint64) (bool, error) {
	var n int64
	if err := s.db.WithContext(ctx).Model(&passkeyRow{}).Where("account_id = ?", accountID).Count(&n).Error; err != nil || n > 0 {
		return n > 0, err
	}
	err := s.db.WithContext(ctx).Model(&totpRow{}).Where("account_id = ? AND confirmed_at IS NOT NULL", accountID).Count(&n).Error
	return n > 0, err
}

// enrolOptions is POST /api/v1/staff/enrol/passkey/options.
func (s *Service) enrolOptions(c echo.Context) error {
	m, ok, err := s.mayEnrol(c)
	if !ok {
		return err
	}
	opts, err := s.beginEnrol(c.Request().Context(), m)
	if err != nil {
		return response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	return c.JSON(http.StatusOK, opts)
}

// enrolPasskey is POST /api/v1/staff/enrol/passkey[?name=] with the
// authenticator's answer: stores the passkey, mails the member, and opens
// a studio session with it.
func (s *Service) enrolPasskey(c echo.Context) error {
	m, ok, err := s.mayEnrol(c)
	if !ok {
		return err
	}
	if ok, err := s.limit(c, m); !ok {
		return err
	}
	body, err := readBody(c)
	if err != nil {
		return response.Error(c, http.StatusBadRequest, "The request could not be read.")
	}
	name := strings.TrimSpace(c.QueryParam("name"))
	if len(name) > 100 {
		name = name[:100]
	}
	ctx := c.Request().Context()
	row, err := s.finishEnrol(ctx, m, body, name)
	if err != nil {
		return s.factorFailed(c, m, "passkey enrolment", err)
	}
	s.record(ctx, c, m, audit.Entry{Action: audit.PasskeyEnrolled, ItemType: "passkey", ItemID: row.Name})
	s.notify(ctx, m, "A passkey was added to your Omnibus studio access",
		"A passkey named \""+row.Name+"\" was added to your staff access to the Omnibus studio on "+s.now().Format("2 January 2006 at 15:04 MST")+
			" from the address "+request.ClientIP(c.Request())+".\n\nIf this was not you, tell an admin at once: they can revoke it and your sessions.")
	return s.opened(c, m, MethodPasskey, row.CredentialID)
}

// notify mails the member (the enrolment notices); a failure is logged,
// the enrolment stands (it is in the audit log either way).
func (s *Service) notify(ctx context.Context, m Member, subject, text string) {
	if s.opt.Mail == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := s.opt.Mail.Send(ctx, mail.Message{To: m.Email, Subject: subject, Text: text}); err != nil {
		s.log.ErrorContext(ctx, "staff: enrolment notice", "err", err)
	}
}

// recheckOptions is POST /api/v1/staff/session/recheck/options: the passkey
// request of a re-check (before publishing, granting, revoking).
func (s *Service) recheckOptions(c echo.Context) error {
	m, _ := MemberFrom(c)
	opts, err := s.beginAssertion(c.Request().Context(), m, kindRecheck)
	if errors.Is(err, ErrNoPasskey) {
		return c.JSON(http.StatusConflict, map[string]any{"errorDetail": "No passkey: confirm with a code from your authenticator app.", "totp": true})
	}
	if err != nil {
		return response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	return c.JSON(http.StatusOK, opts)
}

// recheck is POST /api/v1/staff/session/recheck: the authenticator's
// answer, or {"code": "123456"} where TOTP is allowed. Marks the session
// fresh.
func (s *Service) recheck(c echo.Context) error {
	m, _ := MemberFrom(c)
	if ok, err := s.limit(c, m); !ok {
		return err
	}
	body, err := readBody(c)
	if err != nil {
		return response.Error(c, http.StatusBadRequest, "The request could not be read.")
	}
	ctx := c.Request().Context()
	var code struct {
		Code string `json:"code"`
	}
	json.Unmarshal(body, &code)
	if code.Code != "" {
		if err := s.checkTOTP(ctx, m, code.Code); err != nil {
			if errors.Is(err, errTOTPOff) {
				return response.Error(c, http.StatusForbidden, msgTOTPOff)
			}
			return s.factorFailed(c, m, "totp re-check", err)
		}
	} else if _, err := s.finishAssertion(ctx, m, body, kindRecheck); err != nil {
		return s.factorFailed(c, m, "passkey re-check", err)
	}
	if err := s.markVerified(ctx, sessionFrom(c).ID); err != nil {
		return response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	return c.JSON(http.StatusOK, map[string]any{"fresh": true, "freshUntil": s.now().Add(s.opt.RecheckWindow)})
}

type passkeyListed struct {
	ID         uint64     `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
}

// listPasskeys is GET /api/v1/staff/passkeys: the member's own.
func (s *Service) listPasskeys(c echo.Context) error {
	m, _ := MemberFrom(c)
	var rows []passkeyRow
	if err := s.db.WithContext(c.Request().Context()).Where("account_id = ?", m.AccountID).Order("id").Find(&rows).Error; err != nil {
		return response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	out := []passkeyListed{}
	for _, r := range rows {
		out = append(out, passkeyListed{ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt, LastUsedAt: r.LastUsedAt})
	}
	return c.JSON(http.StatusOK, map[string]any{"passkeys": out})
}

// revokePasskeys is POST /api/v1/staff/members/passkeys/revoke {email,
// reason}: an admin removes every passkey of a member (a lost or stolen
// device) and ends their studio sessions.
func (s *Service) revokePasskeys(c echo.Context) error {
	req, _, err := readMember(c, false)
	if err != nil || req.Email == "" || req.Reason == "" {
		return err
	}
	ctx := c.Request().Context()
	var addr string
	var n int64
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		id, a, err := accountByEmail(tx, req.Email)
		if err != nil {
			return err
		}
		addr = a
		res := tx.Delete(&passkeyRow{}, "account_id = ?", id)
		if res.Error != nil {
			return res.Error
		}
		n = res.RowsAffected
		if err := tx.Delete(&session{}, "account_id = ?", id).Error; err != nil {
			return err
		}
		return audit.RecordTx(ctx, tx, audit.Entry{Action: audit.PasskeyRevoked, ItemType: "member", ItemID: addr,
			Detail: itoa(uint64(n)) + " passkeys removed, sessions ended: " + req.Reason})
	})
	if err != nil {
		return s.changeError(c, err)
	}
	return c.JSON(http.StatusOK, map[string]any{"email": addr, "passkeysRemoved": n})
}
