package app

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/accounts"
	"omnibus/edge/internal/content"
	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/server"
	"omnibus/edge/internal/studio"
	"omnibus/edge/internal/studiopages"
)

// studioStore is the content store the studio's pages read. (When the
// content store is wired into the app for the public pages, this is that
// same store: App.Content.)
func (a *App) studioStore(log *slog.Logger) (*content.Store, error) {
	store := content.New(a.DB, content.Options{Logger: log})
	if err := store.Seed(context.Background()); err != nil {
		return nil, err
	}
	return store, nil
}

// studioMember is a staff member's address (ok false for anyone else).
func (a *App) studioMember(r *http.Request) (string, bool) {
	acct, err := a.Accounts.Current(nil, r)
	if err != nil || acct == nil || !a.Analytics.IsStaff(r.Context(), acct.ID) {
		return "", false
	}
	return acct.Email, true
}

// studioPages hands the studio's pages their data (studiopages) and takes
// the editor's posts without JavaScript; the studio's JSON API is mounted
// on api.
func (a *App) studioPages(store *content.Store, publicURL string, log *slog.Logger, api *echo.Group, formPages *forms.Pages) {
	sameOrigin := accounts.Vocabulary().Guard(publicURL)
	studio.Register(api, studio.Options{Store: store, SameSite: sameOrigin, Logger: log, Member: func(r *http.Request) (studio.Member, bool) {
		acct, err := a.Accounts.Current(nil, r)
		if err != nil || acct == nil {
			return studio.Member{}, false
		}
		return studio.Member{AccountID: acct.ID, Email: acct.Email, Staff: a.Analytics.IsStaff(r.Context(), acct.ID)}, true
	}})
	o := a.studioOptions(store, log)
	save := server.BodyLimit(studio.MaxBody)(studiopages.SaveForm(o, sameOrigin))
	formPages.Handle(studiopages.FormItem, save)
	formPages.Handle(studiopages.FormNew, save)
}

func (a *App) studioOptions(store *content.Store, log *slog.Logger) studiopages.Options {
	return studiopages.Options{Store: store, Member: a.studioMember, Logger: log,
		Views: func(ctx context.Context) (map[string]int64, error) {
			from, to := a.Analytics.DefaultRange()
			return a.Analytics.ViewsByPath(ctx, from, to)
		}}
}
