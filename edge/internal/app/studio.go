package app

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/accounts"
	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/images"
	"omnibus/edge/internal/server"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/studio"
	"omnibus/edge/internal/studiopages"
)

// studioMember is who may see (min viewer) or save (min editor) a studio
// page: a studio session with that role (internal/staff); a staff member
// without a studio session is sent to the studio's sign-in.
func (a *App) studioMember(min staff.Role) func(http.ResponseWriter, *http.Request) (string, bool, bool) {
	access := a.Staff.PageAccess(min)
	return func(w http.ResponseWriter, r *http.Request) (string, bool, bool) {
		ok, answered := access(w, r)
		if !ok || answered {
			return "", false, answered
		}
		acct, err := a.Accounts.Current(nil, r)
		if err != nil || acct == nil {
			return "", false, false
		}
		return acct.Email, true, false
	}
}

// studioOptions are the studio pages' data sources: the content store, the
// staff roles, the members and the audit log (an admin's), the analytics'
// views per page over the last 30 days.
func (a *App) studioOptions(min staff.Role, log *slog.Logger) studiopages.Options {
	return studiopages.Options{Store: a.Content, Member: a.studioMember(min), Logger: log,
		Admin:        func(_ http.ResponseWriter, r *http.Request) bool { return a.Staff.RoleOf(r) >= staff.Admin },
		Members:      a.Staff.Members.List,
		Audit:        a.Staff.Audit.List,
		MemberAction: a.Staff.MemberAction,
		Views: func(ctx context.Context) (map[string]int64, error) {
			from, to := a.Analytics.DefaultRange()
			return a.Analytics.ViewsByPath(ctx, from, to)
		}}
}

// registerStudio takes the editor's and the members page's posts without
// JavaScript (forms) and
// mounts the images of articles: listed for every member, uploaded and
// deleted by editors, served to everyone.
func (a *App) registerStudio(publicURL string, log *slog.Logger, api *echo.Group, formPages *forms.Pages) {
	sameOrigin := accounts.Vocabulary().Guard(publicURL)
	save := server.BodyLimit(studio.MaxBody)(studiopages.SaveForm(a.studioOptions(staff.Editor, log), sameOrigin))
	formPages.Handle(studiopages.FormItem, save)
	formPages.Handle(studiopages.FormNew, save)
	// The members page's changes without JavaScript: each goes through the
	// member endpoint's own guard (an admin, freshly re-checked).
	formPages.Handle(studiopages.FormMembers, studiopages.MembersForm(a.studioOptions(staff.Admin, log), sameOrigin))
	images.New(a.DB, images.Options{}).Register(api, a.Server.Routes, images.Access{
		Guard: a.Staff.Require(staff.Editor),
		Read:  a.Staff.Require(staff.Viewer),
		Account: func(c echo.Context) (uint64, bool) {
			m, ok := staff.MemberFrom(c)
			return m.AccountID, ok
		},
	}, sameOrigin)
	a.Cards.Register(a.Server.Routes) // the published articles' preview cards, to everyone
}
