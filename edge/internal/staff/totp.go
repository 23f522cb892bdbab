package staff

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base32"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"gorm.io/gorm"

	"omnibus/edge/internal/audit"
	"omnibus/edge/internal/httpx/response"
	"omnibus/edge/internal/token"
)

// TOTP: the fallback an admin may allow per member (a code from an
// authenticator app, which a phishing page can relay, unlike a passkey).
// A code is accepted once: the step it belongs to must be later than the
// last step accepted, moved forward by a compare-and-set. Recovery codes
// (RecoveryCodes of them, made when TOTP is confirmed) are single-use and
// stored as hashes.

// RecoveryCodes is how many recovery codes a TOTP enrolment makes.
const RecoveryCodes = 10

const totpPeriod = 30

var (
	errCode    = errors.New("the code is wrong or was used already")
	errTOTPOff = errors.New("TOTP is not allowed for this member")
)

// totpRow is one staff_totp row (storage migration 222).
type totpRow struct {
	AccountID   uint64 `gorm:"primaryKey;autoIncrement:false"`
	Secret      string
	LastStep    int64
	CreatedAt   time.Time
	ConfirmedAt *time.Time
}

func (totpRow) TableName() string { return "staff_totp" }

type recoveryRow struct {
	CodeHash  string `gorm:"primaryKey"`
	AccountID uint64
	CreatedAt time.Time
	UsedAt    *time.Time
}

func (recoveryRow) TableName() string { return "staff_recovery_codes" }

// totpAllowed reports an admin's permission for the member.
func (s *Service) totpAllowed(ctx context.Context, accountID uint64) (bool, error) {
	var allowed []bool
	err := s.db.WithContext(ctx).Model(&row{}).Where("account_id = ?", accountID).Pluck("totp_allowed", &allowed).Error
	return len(allowed) == 1 && allowed[0], err
}

// matchStep is the step (of now-1, now, now+1: a clock a little off) whose
// code is code, or 0.
func matchStep(secret, code string, now time.Time) int64 {
	code = strings.TrimSpace(strings.ReplaceAll(code, " ", ""))
	if len(code) != 6 {
		return 0
	}
	step := now.Unix() / totpPeriod
	for _, st := range []int64{step - 1, step, step + 1} {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(st*totpPeriod, 0), totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return st
		}
	}
	return 0
}

// checkTOTP accepts a confirmed member's code once.
func (s *Service) checkTOTP(ctx context.Context, m Member, code string) error {
	allowed, err := s.totpAllowed(ctx, m.AccountID)
	if err != nil {
		return err
	}
	if !allowed {
		return errTOTPOff
	}
	var t totpRow
	if err := s.db.WithContext(ctx).Take(&t, "account_id = ? AND confirmed_at IS NOT NULL", m.AccountID).Error; errors.Is(err, gorm.ErrRecordNotFound) {
		return errCode
	} else if err != nil {
		return err
	}
	return s.useStep(ctx, t, code)
}

// useStep moves the member's last step to the code's, only forward.
func (s *Service) useStep(ctx context.Context, t totpRow, code string) error {
	st := matchStep(t.Secret, code, s.now())
	if st == 0 || st <= t.LastStep {
		return errCode
	}
	res := s.db.WithContext(ctx).Model(&totpRow{}).Where("account_id = ? AND last_step < ?", t.AccountID, st).Update("last_step", st)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return errCode
	}
	return nil
}

// useRecovery spends one recovery code.
func (s *Service) useRecovery(ctx context.Context, m Member, code string) error {
	allowed, err := s.totpAllowed(ctx, m.AccountID)
	if err != nil {
		return err
	}
	if !allowed {
		return errTOTPOff
	}
	res := s.db.WithContext(ctx).Model(&recoveryRow{}).
		Where("code_hash = ? AND account_id = ? AND used_at IS NULL", token.Hash(normaliseRecovery(code)), m.AccountID).Update("used_at", s.now())
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return errCode
	}
	return nil
}

func normaliseRecovery(code string) string {
	return strings.ToLower(strings.NewReplacer("-", "", " ", "").Replace(strings.TrimSpace(code)))
}

// newRecoveryCodes are fresh codes, as shown (xxxxx-xxxxx, 50 bits each).
func newRecoveryCodes() []string {
	out := make([]string, RecoveryCodes)
	for i := range out {
		b := make([]byte, 7)
		rand.Read(b)
		s := strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))[:10]
		out[i] = s[:5] + "-" + s[5:]
	}
	return out
}

// enrolTOTP is POST /api/v1/staff/enrol/totp: a new secret (unconfirmed
// until a code from it comes back), for a member an admin allowed TOTP.
func (s *Service) enrolTOTP(c echo.Context) error {
	m, ok, err := s.mayEnrol(c)
	if !ok {
		return err
	}
	ctx := c.Request().Context()
	if allowed, err := s.totpAllowed(ctx, m.AccountID); err != nil {
		return response.Error(c, http.StatusServiceUnavailable, msgBusy)
	} else if !allowed {
		return response.Error(c, http.StatusForbidden, msgTOTPOff)
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: "Omnibus studio", AccountName: m.Email, Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Delete(&totpRow{}, "account_id = ?", m.AccountID).Error; err != nil {
			return err
		}
		return tx.Create(&totpRow{AccountID: m.AccountID, Secret: key.Secret(), CreatedAt: s.now()}).Error
	})
	if err != nil {
		return response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	return c.JSON(http.StatusOK, map[string]string{"secret": key.Secret(), "otpauthUrl": key.URL()})
}

// confirmTOTP is POST /api/v1/staff/enrol/totp/confirm {code}: the first
// code confirms the secret; the answer has the recovery codes, shown once.
// It mails the member and opens a studio session.
func (s *Service) confirmTOTP(c echo.Context) error {
	m, ok, err := s.mayEnrol(c)
	if !ok {
		return err
	}
	if ok, err := s.limit(c, m); !ok {
		return err
	}
	var req struct {
		Code string `json:"code"`
	}
	if err := c.Bind(&req); err != nil {
		return response.Error(c, http.StatusBadRequest, "The request is not a JSON object.")
	}
	ctx := c.Request().Context()
	var t totpRow
	if err := s.db.WithContext(ctx).Take(&t, "account_id = ? AND confirmed_at IS NULL", m.AccountID).Error; err != nil {
		return response.Error(c, http.StatusConflict, "Start the authenticator app's set-up first.")
	}
	if err := s.useStep(ctx, t, req.Code); err != nil {
		return s.factorFailed(c, m, "totp enrolment", err)
	}
	codes := newRecoveryCodes()
	now := s.now()
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&totpRow{}).Where("account_id = ?", m.AccountID).Update("confirmed_at", now).Error; err != nil {
			return err
		}
		if err := tx.Delete(&recoveryRow{}, "account_id = ?", m.AccountID).Error; err != nil {
			return err
		}
		for _, code := range codes {
			if err := tx.Create(&recoveryRow{CodeHash: token.Hash(normaliseRecovery(code)), AccountID: m.AccountID, CreatedAt: now}).Error; err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	s.record(ctx, c, m, audit.Entry{Action: audit.TOTPEnrolled})
	s.notify(ctx, m, "An authenticator app was added to your Omnibus studio access",
		"An authenticator app (TOTP codes) was set up for your staff access to the Omnibus studio on "+now.Format("2 January 2006 at 15:04 MST")+
			".\n\nIf this was not you, tell an admin at once: they can turn it off and end your sessions.")
	if err := s.Open(ctx, c.Response(), c.Request(), m.AccountID, MethodTOTP, "", ""); err != nil {
		return response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	return c.JSON(http.StatusOK, map[string]any{"recoveryCodes": codes})
}

// signInTOTP is POST /api/v1/staff/sign-in/totp {code} or {recoveryCode}.
func (s *Service) signInTOTP(c echo.Context) error {
	m, _, ok, err := s.firstFactor(c)
	if !ok {
		return err
	}
	if ok, err := s.limit(c, m); !ok {
		return err
	}
	var req struct {
		Code         string `json:"code"`
		RecoveryCode string `json:"recoveryCode"`
	}
	if err := c.Bind(&req); err != nil {
		return response.Error(c, http.StatusBadRequest, "The request is not a JSON object.")
	}
	ctx := c.Request().Context()
	method := MethodTOTP
	if req.RecoveryCode != "" {
		method = MethodRecovery
		err = s.useRecovery(ctx, m, req.RecoveryCode)
	} else {
		err = s.checkTOTP(ctx, m, req.Code)
	}
	if errors.Is(err, errTOTPOff) {
		return response.Error(c, http.StatusForbidden, msgTOTPOff)
	}
	if err != nil {
		return s.factorFailed(c, m, method, err)
	}
	if method == MethodRecovery {
		s.record(ctx, c, m, audit.Entry{Action: audit.RecoveryCodeUsed})
	}
	return s.opened(c, m, method, "")
}

// allowTOTP is POST /api/v1/staff/members/totp {email, allowed, reason}:
// an admin allows TOTP for a member, or stops it (which removes the
// member's secret and recovery codes and ends their TOTP sessions).
func (s *Service) allowTOTP(c echo.Context) error {
	req, _, err := readMember(c, false)
	if err != nil || req.Email == "" || req.Reason == "" {
		return err
	}
	if req.Allowed == nil {
		return c.JSON(http.StatusBadRequest, fieldRefusal{ErrorDetail: "Say whether TOTP is allowed.", FieldErrors: map[string]string{"allowed": "true or false"}})
	}
	ctx := c.Request().Context()
	var addr string
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		id, a, err := accountByEmail(tx, req.Email)
		if err != nil {
			return err
		}
		addr = a
		res := tx.Model(&row{}).Where("account_id = ?", id).Update("totp_allowed", *req.Allowed)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrNotStaff
		}
		action := audit.TOTPAllowed
		if !*req.Allowed {
			action = audit.TOTPDisallowed
			for _, q := range []any{&totpRow{}, &recoveryRow{}} {
				if err := tx.Delete(q, "account_id = ?", id).Error; err != nil {
					return err
				}
			}
			if err := tx.Delete(&session{}, "account_id = ? AND method <> ?", id, MethodPasskey).Error; err != nil {
				return err
			}
		}
		return audit.RecordTx(ctx, tx, audit.Entry{Action: action, ItemType: "member", ItemID: addr, Detail: req.Reason})
	})
	if err != nil {
		return s.changeError(c, err)
	}
	return c.JSON(http.StatusOK, map[string]any{"email": addr, "totpAllowed": *req.Allowed})
}
