package staff

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/audit"
	"omnibus/edge/internal/httpx/crossorigin"
	"omnibus/edge/internal/httpx/request"
	"omnibus/edge/internal/httpx/response"
)

// SignInPath is the studio's sign-in page (signin.go).
const SignInPath = "/staff/sign-in"

// Answers of the middleware. The 401s carry "signIn" (the page to go to)
// or "reauthenticate" (confirm with the passkey, then try again).
type refusal struct {
	ErrorDetail    string `json:"errorDetail"`
	SignIn         string `json:"signIn,omitempty"`
	Reauthenticate bool   `json:"reauthenticate,omitempty"`
}

const (
	msgSignIn    = "Sign in to the studio with your passkey."
	msgForbidden = "Your staff role does not allow this."
	msgReauth    = "Confirm it is you with your passkey, then try again."
	msgCrossSite = "This request came from another site."
	msgBusy      = "The studio cannot check your session right now. Please try again."
	// msgNotChanged answers a change (a save, a publish) whose session could
	// not be checked: the editor must know their work did not land.
	msgNotChanged = "The studio cannot reach its database right now, so nothing was saved or changed. Your work is still on your screen: try again in a moment."
)

type memberKey struct{}
type sessionKey struct{}

// Require is the middleware of every studio endpoint: 401 without a studio
// session (a merchant session alone is not one), 403 when the member's role
// is below min, 403 for a state change sent by another site. Behind it,
// MemberFrom(c) is the member, and the request's context carries the audit
// log and who acts (audit.Record).
func (s *Service) Require(min Role) echo.MiddlewareFunc { return s.require(min, false) }

// RequireFresh is Require for the actions re-checked before they run
// (publish, grant, revoke): the session's last second-factor ceremony must
// be within the recheck window (STAFF_RECHECK_WINDOW), else 401 with
// "reauthenticate" and the studio asks for the passkey again.
func (s *Service) RequireFresh(min Role) echo.MiddlewareFunc { return s.require(min, true) }

func (s *Service) require(min Role, fresh bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		h := func(c echo.Context) error {
			r := c.Request()
			c.Response().Header().Set("Cache-Control", "no-store")
			sess, err := s.current(r.Context(), r)
			if err != nil {
				if r.Method != http.MethodGet && r.Method != http.MethodHead {
					return response.Error(c, http.StatusServiceUnavailable, msgNotChanged)
				}
				return response.Error(c, http.StatusServiceUnavailable, msgBusy)
			}
			if sess == nil {
				return c.JSON(http.StatusUnauthorized, refusal{ErrorDetail: msgSignIn, SignIn: SignInPath})
			}
			if sess.Member.Role < min {
				return response.Error(c, http.StatusForbidden, msgForbidden)
			}
			if fresh && s.now().Sub(sess.VerifiedAt) > s.opt.RecheckWindow {
				return c.JSON(http.StatusUnauthorized, refusal{ErrorDetail: msgReauth, Reauthenticate: true})
			}
			c.Set(string(ctxMember), sess.Member)
			ctx := context.WithValue(r.Context(), memberKey{}, sess.Member)
			ctx = context.WithValue(ctx, sessionKey{}, sess)
			ctx = audit.WithLog(ctx, s.Audit)
			ctx = audit.WithActor(ctx, audit.Who{ActorID: sess.Member.AccountID, Actor: sess.Member.Email, ClientIP: request.ClientIP(r)})
			c.SetRequest(r.WithContext(ctx))
			return next(c)
		}
		// State changes from another site are refused before anything else.
		cross := crossorigin.Guard(s.opt.PublicURL, func(c echo.Context) error {
			return response.Error(c, http.StatusForbidden, msgCrossSite)
		})(h)
		return func(c echo.Context) error {
			switch c.Request().Method {
			case http.MethodGet, http.MethodHead, http.MethodOptions:
				return h(c)
			}
			return cross(c)
		}
	}
}

type ctxName string

const ctxMember ctxName = "staff.member"

// MemberFrom is the member a request behind Require acts as.
func MemberFrom(c echo.Context) (Member, bool) {
	m, ok := c.Get(string(ctxMember)).(Member)
	return m, ok
}

// MemberFromContext is MemberFrom for a context.Context.
func MemberFromContext(ctx context.Context) (Member, bool) {
	m, ok := ctx.Value(memberKey{}).(Member)
	return m, ok
}

// sessionFrom is the studio session of a request behind Require.
func sessionFrom(c echo.Context) *Session {
	s, _ := c.Request().Context().Value(sessionKey{}).(*Session)
	return s
}

// Fresh reports whether the request's session proved its second factor
// within the recheck window.
func (s *Service) Fresh(c echo.Context) bool {
	sess := sessionFrom(c)
	return sess != nil && s.now().Sub(sess.VerifiedAt) <= s.opt.RecheckWindow
}

var _ = time.Second
