package staff

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"omnibus/edge/internal/audit"
	"omnibus/edge/internal/httpx/response"
)

// AuditReader is the role that reads the audit log: admin only. The log
// holds every member's client addresses and failed sign-ins, which only
// those who manage members need; an item's own history (who saved and
// published it) is the content API's to show to whoever may edit it.
const AuditReader = Admin

// Register adds the studio's access endpoints to g (the /api/v1 group);
// docs/staff-api.md describes them.
func (s *Service) Register(g *echo.Group) {
	g.GET("/staff/me", s.me, s.Require(Viewer))
	g.POST("/staff/sign-out", s.signOut, s.Require(Viewer))
	g.GET("/staff/members", s.listMembers, s.Require(Admin))
	for _, a := range MemberActionNames {
		g.POST("/staff/members/"+a, s.memberActions()[a], s.RequireFresh(Admin))
	}
	s.Audit.Register(g, s.Require(AuditReader))
	s.registerSignIn(g)
}

// MemberActionNames are the admin's changes to a member, each the path
// under /api/v1/staff/members/ that makes it.
var MemberActionNames = []string{"grant", "revoke", "sessions/revoke", "passkeys/revoke", "totp"}

func (s *Service) memberActions() map[string]echo.HandlerFunc {
	return map[string]echo.HandlerFunc{"grant": s.grant, "revoke": s.revoke, "sessions/revoke": s.revokeSessions,
		"passkeys/revoke": s.revokePasskeys, "totp": s.allowTOTP}
}

// MemberAction is the endpoint of an admin's change to a member (one of
// MemberActionNames) behind the same guard as its route (an admin's fresh
// studio session, the cross-site check): the studio's page posts it
// without JavaScript (studiopages), so that path passes every check the
// API makes. Nil for an unknown name.
func (s *Service) MemberAction(name string) echo.HandlerFunc {
	h := s.memberActions()[name]
	if h == nil {
		return nil
	}
	return s.RequireFresh(Admin)(h)
}

type meAnswer struct {
	Member
	Method     string    `json:"method"`
	VerifiedAt time.Time `json:"verifiedAt"`
	ExpiresAt  time.Time `json:"expiresAt"`
	// Fresh: publishing, granting and revoking need no new passkey check
	// before FreshUntil.
	Fresh      bool      `json:"fresh"`
	FreshUntil time.Time `json:"freshUntil"`
}

// me is GET /api/v1/staff/me: who the studio session is.
func (s *Service) me(c echo.Context) error {
	sess := sessionFrom(c)
	return c.JSON(http.StatusOK, meAnswer{Member: sess.Member, Method: sess.Method, VerifiedAt: sess.VerifiedAt, ExpiresAt: sess.ExpiresAt,
		Fresh: s.Fresh(c), FreshUntil: sess.VerifiedAt.Add(s.opt.RecheckWindow)})
}

// signOut is POST /api/v1/staff/sign-out: ends this studio session (the
// merchant session stays).
func (s *Service) signOut(c echo.Context) error {
	ctx := c.Request().Context()
	if err := s.Close(ctx, c.Response(), c.Request()); err != nil {
		return response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	if err := audit.Record(ctx, audit.Entry{Action: audit.SignOut}); err != nil {
		s.log.ErrorContext(ctx, "staff: audit", "err", err)
	}
	return c.NoContent(http.StatusNoContent)
}

func (s *Service) listMembers(c echo.Context) error {
	ms, err := s.Members.List(c.Request().Context())
	if err != nil {
		return response.Error(c, http.StatusServiceUnavailable, msgBusy)
	}
	return c.JSON(http.StatusOK, map[string]any{"members": ms})
}

// memberRequest is the body of the admin's member actions.
type memberRequest struct {
	Email   string `json:"email"`
	Role    string `json:"role"`
	Reason  string `json:"reason"`
	Allowed *bool  `json:"allowed"`
}

// MaxReason is the longest reason kept (characters).
const MaxReason = 500

type fieldRefusal struct {
	ErrorDetail string            `json:"errorDetail"`
	FieldErrors map[string]string `json:"fieldErrors"`
}

// readMember decodes and checks a member action's body: an address and a
// reason always; the role when wantRole.
func readMember(c echo.Context, wantRole bool) (memberRequest, Role, error) {
	var req memberRequest
	if err := json.NewDecoder(c.Request().Body).Decode(&req); err != nil {
		return req, None, response.Error(c, http.StatusBadRequest, "The request is not a JSON object.")
	}
	req.Email = strings.TrimSpace(req.Email)
	req.Reason = strings.TrimSpace(req.Reason)
	bad := map[string]string{}
	if req.Email == "" {
		bad["email"] = "Enter the member's e-mail address."
	}
	if req.Reason == "" {
		bad["reason"] = "Say why: the reason is kept in the audit log."
	} else if utf8.RuneCountInString(req.Reason) > MaxReason {
		bad["reason"] = "At most 500 characters."
	}
	role := None
	if wantRole {
		var err error
		if role, err = ParseRole(req.Role); err != nil {
			bad["role"] = "Choose viewer, editor, publisher or admin."
		}
	}
	if len(bad) > 0 {
		return req, None, c.JSON(http.StatusBadRequest, fieldRefusal{ErrorDetail: "Some fields need attention.", FieldErrors: bad})
	}
	return req, role, nil
}

// changeError answers a Directory error.
func (s *Service) changeError(c echo.Context, err error) error {
	switch {
	case errors.Is(err, ErrNoAccount):
		return c.JSON(http.StatusNotFound, fieldRefusal{ErrorDetail: "No account has that e-mail address: they sign up on the site first.",
			FieldErrors: map[string]string{"email": "No account has this address."}})
	case errors.Is(err, ErrNotStaff):
		return c.JSON(http.StatusNotFound, fieldRefusal{ErrorDetail: "That account has no staff role.", FieldErrors: map[string]string{"email": "Not a staff member."}})
	case errors.Is(err, ErrFirstAdmin), errors.Is(err, ErrLastAdmin):
		return response.Error(c, http.StatusConflict, err.Error())
	}
	s.log.ErrorContext(c.Request().Context(), "staff: member change", "err", err)
	return response.Error(c, http.StatusServiceUnavailable, "The change was not made: the database did not answer. Please try again.")
}

// grant is POST /api/v1/staff/members/grant {email, role, reason}.
func (s *Service) grant(c echo.Context) error {
	req, role, err := readMember(c, true)
	if err != nil || role == None {
		return err
	}
	by, _ := MemberFrom(c)
	m, err := s.Members.Grant(c.Request().Context(), req.Email, role, Change{By: s.who(c, by), Reason: req.Reason})
	if err != nil {
		return s.changeError(c, err)
	}
	return c.JSON(http.StatusOK, m)
}

// revoke is POST /api/v1/staff/members/revoke {email, reason}.
func (s *Service) revoke(c echo.Context) error {
	req, _, err := readMember(c, false)
	if err != nil || req.Email == "" || req.Reason == "" {
		return err
	}
	by, _ := MemberFrom(c)
	m, err := s.Members.Revoke(c.Request().Context(), req.Email, Change{By: s.who(c, by), Reason: req.Reason})
	if err != nil {
		return s.changeError(c, err)
	}
	return c.JSON(http.StatusOK, m)
}

// revokeSessions is POST /api/v1/staff/members/sessions/revoke {email, reason}:
// ends every studio session of that member.
func (s *Service) revokeSessions(c echo.Context) error {
	req, _, err := readMember(c, false)
	if err != nil || req.Email == "" || req.Reason == "" {
		return err
	}
	ctx := c.Request().Context()
	var addr string
	var n int64
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var id uint64
		var err error
		if id, addr, err = accountByEmail(tx, req.Email); err != nil {
			return err
		}
		res := tx.Delete(&session{}, "account_id = ?", id)
		if res.Error != nil {
			return res.Error
		}
		n = res.RowsAffected
		return audit.RecordTx(ctx, tx, audit.Entry{Action: audit.SessionsRevoked, ItemType: "member", ItemID: addr,
			Detail: fmt.Sprintf("%d sessions ended: %s", n, req.Reason)})
	})
	if err != nil {
		return s.changeError(c, err)
	}
	return c.JSON(http.StatusOK, map[string]any{"email": addr, "sessionsEnded": n})
}

func (s *Service) who(c echo.Context, m Member) audit.Who {
	return audit.Who{ActorID: m.AccountID, Actor: m.Email}
}
