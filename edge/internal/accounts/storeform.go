package accounts

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"omnibus/edge/internal/exchange"
	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/httpx/response"
	"omnibus/edge/internal/storage"
)

// formStoreName is the store-name step's form in shared/routes.json: the
// page /choose-plan takes it while the signed-in account has no store yet.
const formStoreName = "store-name"

// choosePlanPath is where a merchant goes once the store has its name.
const choosePlanPath = "/choose-plan"

// nameStore: POST /oaccount/store-name {storeName}, and the same form
// posted to /choose-plan without JavaScript. An account made by Google
// sign-in has no store (the provider knows no store name): this step asks
// for it before anything else of onboarding (the sign-in still
// lands on /contact-us as SPEC §4 says, whose welcome leads here), with the rules
// and words of the register form's field. The store gets the subdomain
// (Slug) and keeps the name as typed (StoreTitle), which merchant pages
// show. A form post answers 303 to /choose-plan, or that page again with
// the refusal; JSON answers 200 {data:{storeName, storeTitle}}. Signed out:
// 401 (a form: 303 to /login). An account whose store already has a name
// keeps it (409 storeNameSet; a form: 303 to /choose-plan).
func (s *Service) nameStore(c echo.Context) error {
	noStore(c.Response())
	f, p := read(c)
	if p != nil {
		return refuse(c, p, forms.State{Form: formStoreName})
	}
	st := shown(formStoreName, f, "storeName")
	ctx := c.Request().Context()
	acct, err := s.current(ctx, c.Response(), c.Request())
	if err != nil {
		slog.ErrorContext(ctx, "accounts: store name", "err", err)
		return refuse(c, errUnavailable, st)
	}
	form := exchange.IsForm(c)
	if acct == nil {
		if form {
			return exchange.SeeOther(c, "/login")
		}
		return response.Error(c, http.StatusUnauthorized, Message("signedOut"))
	}
	if acct.StoreName != nil {
		if form {
			return exchange.SeeOther(c, choosePlanPath)
		}
		return refuse(c, fail(http.StatusConflict, codeStoreNameSet), forms.State{})
	}
	if ok, wait := s.RegisterByIP.Allow(ctx, s.RegisterByIP.Client(c.Request())); !ok {
		return limited(c, wait, st)
	}
	slug := Slug(f["storeName"])
	if p := invalid("storeName", storeNameProblem(f["storeName"], slug)); p != nil {
		return refuse(c, p, st)
	}
	title := storeTitle(f["storeName"])
	res := s.db.WithContext(ctx).Model(&Account{}).Where("id = ? AND store_name IS NULL", acct.ID).
		Updates(map[string]any{"store_name": slug, "store_title": title, "updated_at": s.now()})
	switch {
	case res.Error != nil && (storage.IsUniqueViolation(res.Error) || errors.Is(res.Error, gorm.ErrDuplicatedKey)):
		p := fail(http.StatusConflict, "")
		p.Add("storeName", codeStoreNameTaken)
		return refuse(c, p, st)
	case res.Error != nil:
		slog.ErrorContext(ctx, "accounts: store name", "err", res.Error)
		return refuse(c, errUnavailable, st)
	case res.RowsAffected == 0: // named a moment ago (another tab)
		if form {
			return exchange.SeeOther(c, choosePlanPath)
		}
		return refuse(c, fail(http.StatusConflict, codeStoreNameSet), forms.State{})
	}
	if form {
		return exchange.SeeOther(c, choosePlanPath)
	}
	return response.OK(c, envelope{map[string]string{"storeName": slug, "storeTitle": title}})
}
