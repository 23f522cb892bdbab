package accounts

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"omnibus/edge/internal/exchange"
	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/httpx/response"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/token"
	"omnibus/edge/internal/validation"
)

// maxName is the name's length limit (shared/validation.json).
var maxName = validation.Field("name").MaxLength

// normaliseEmail trims and lower-cases an address, or says why it is refused
// (the rule of shared/validation.json).
func normaliseEmail(raw string) (string, string) {
	e, p := validation.Email(raw)
	switch p {
	case validation.OK:
		return e, ""
	case validation.Required:
		return "", codeEmailRequired
	}
	return "", codeEmailInvalid
}

// register: POST /oaccount/register {name, email, password, storeName}.
// Creates the account (status account_created) with its store name and
// signs the visitor in: 201 with the status, or 303 to /contact-us.
func (s *Service) register(c echo.Context) error {
	f, p := read(c)
	if p != nil {
		return refuse(c, p, forms.State{Form: formRegister})
	}
	st := shown(formRegister, f, "name", "email", "storeName")
	// The visitor without JavaScript keeps the password typed, as the page
	// with JavaScript does: only in the page answered now (decision 0061).
	if pw := keptPassword(f["password"]); pw != "" {
		st.Values["password"] = pw
	}
	if ok, wait := s.RegisterByIP.Allow(c.Request().Context(), s.RegisterByIP.Client(c.Request())); !ok {
		return limited(c, wait, st)
	}
	name, nameProblem := validation.Check("name", f["name"])
	email, emailCode := normaliseEmail(f["email"])
	slug := Slug(f["storeName"])
	nameCode := ""
	switch nameProblem {
	case validation.OK:
	case validation.Required:
		nameCode = codeNameRequired
	case validation.TooLong:
		nameCode = codeNameTooLong
	default:
		nameCode = codeNameInvalid
	}
	storeCode := storeNameProblem(f["storeName"], slug)
	ctx := c.Request().Context()
	// A taken e-mail and a taken store name are told with every other
	// refusal, in one answer.
	emailTaken, storeTaken, err := s.taken(ctx, email, emailCode == "", slug, storeCode == "")
	if err != nil {
		slog.ErrorContext(ctx, "accounts: register lookup", "err", err)
		return refuse(c, errUnavailable, st)
	}
	if emailTaken {
		emailCode = codeEmailTaken
	}
	if storeTaken {
		storeCode = codeStoreNameTaken
	}
	if p := registerRefusal(nameCode, emailCode, passwordProblem(f["password"], email, slug), storeCode); p != nil {
		return refuse(c, p, st)
	}

	now := s.now()
	hash, p := s.hash(ctx, f["password"])
	if p != nil {
		return refuse(c, p, st)
	}
	acct := &Account{Name: name, Email: email, PasswordHash: hash, StoreName: &slug, StoreTitle: storeTitle(f["storeName"]), Status: StatusAccountCreated, CreatedAt: now, UpdatedAt: now}
	// The account and its session in one transaction: a
	// registration answered as failed left nothing behind (no account, no
	// mail), so trying again works.
	secret := token.New()
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(acct).Error; err != nil {
			return err
		}
		return s.createSession(tx, c.Request(), acct, secret)
	})
	if err != nil {
		if !storage.IsUniqueViolation(err) && !errors.Is(err, gorm.ErrDuplicatedKey) {
			slog.ErrorContext(ctx, "accounts: register", "err", err)
			return refuse(c, errUnavailable, st)
		}
		// Taken since the check above (a concurrent registration): which
		// unique column, or both?
		emailTaken, storeTaken, err := s.taken(ctx, email, true, slug, true)
		if err != nil || !emailTaken && !storeTaken {
			emailTaken = true // the e-mail is the one to tell first
		}
		emailCode, storeCode := "", ""
		if emailTaken {
			emailCode = codeEmailTaken
		}
		if storeTaken {
			storeCode = codeStoreNameTaken
		}
		return refuse(c, registerRefusal("", emailCode, "", storeCode), st)
	}
	s.setCookie(c.Response(), secret)
	created := *acct
	reqCtx := c.Request().Context()
	s.background(func() { s.sendVerification(reqCtx, created) })
	return s.signedIn(c, http.StatusCreated, acct)
}

// registerRefusal is every refused field of a registration in the form's
// order, or nil: 409 when each is taken (the request itself was fine), else
// 400.
func registerRefusal(name, email, password, storeName string) *problem {
	p := fail(http.StatusBadRequest, "")
	p.Add("name", name)
	p.Add("email", email)
	p.Add("password", password)
	p.Add("storeName", storeName)
	if len(p.Invalid) == 0 {
		return nil
	}
	if (email == "" || email == codeEmailTaken) && (storeName == "" || storeName == codeStoreNameTaken) && name == "" && password == "" {
		p.Status = http.StatusConflict
	}
	return p
}

// taken reports whether an account has this e-mail (when checkEmail) and
// whether one has this store name (when checkStore), in one query.
func (s *Service) taken(ctx context.Context, email string, checkEmail bool, slug string, checkStore bool) (emailTaken, storeTaken bool, err error) {
	if !checkEmail && !checkStore {
		return false, false, nil
	}
	if !checkEmail {
		email = ""
	}
	if !checkStore {
		slug = ""
	}
	var rows []Account
	err = s.db.WithContext(ctx).Select("email", "store_name").
		Where("(email = ? AND ? <> '') OR (store_name = ? AND ? <> '')", email, email, slug, slug).Limit(2).Find(&rows).Error
	for _, a := range rows {
		emailTaken = emailTaken || checkEmail && a.Email == email
		storeTaken = storeTaken || checkStore && a.StoreName != nil && *a.StoreName == slug
	}
	return emailTaken, storeTaken, err
}

// login: POST /oaccount/login and /hq/account/seller/login {email, password}.
// Rate-limited per client IP and per account e-mail (429 + Retry-After).
func (s *Service) login(c echo.Context) error {
	f, p := read(c)
	if p != nil {
		return refuse(c, p, forms.State{Form: formLogin})
	}
	st := shown(formLogin, f, "email")
	if ok, wait := s.LoginByIP.Allow(c.Request().Context(), s.LoginByIP.Client(c.Request())); !ok {
		return limited(c, wait, st)
	}
	email, code := normaliseEmail(f["email"])
	bad := fail(http.StatusBadRequest, "")
	bad.Add("email", code)
	if f["password"] == "" {
		bad.Add("password", codePasswordRequired)
	}
	if len(bad.Invalid) > 0 {
		return refuse(c, bad, st)
	}
	// A browser that signed in to this account before (its device cookie)
	// is limited on its own; any other is limited per client and account
	// together, and per account whatever the address (guesses
	// from many addresses), so strangers' guesses lock the account to
	// strangers only.
	device := s.knownDevice(c.Request(), email)
	if device != "" {
		if ok, wait := s.LoginByDevice.Allow(c.Request().Context(), device); !ok {
			return limited(c, wait, st)
		}
	} else {
		if ok, wait := s.LoginByAccount.Allow(c.Request().Context(), s.LoginByAccount.Client(c.Request())+" "+email); !ok {
			return limited(c, wait, st)
		}
		if ok, wait := s.LoginAnyAddress.Allow(c.Request().Context(), email); !ok {
			return limited(c, wait, st)
		}
	}
	ctx := c.Request().Context()
	var acct Account
	err := s.db.WithContext(ctx).Where("email = ?", email).First(&acct).Error
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		slog.ErrorContext(ctx, "accounts: login lookup", "err", err)
		return refuse(c, errUnavailable, st)
	}
	hash := acct.PasswordHash
	if hash == "" {
		hash = dummyHash() // no account, or Google-only: same work, same answer
	}
	ok, p := s.check(ctx, hash, f["password"], device != "")
	if p != nil {
		return refuse(c, p, st)
	}
	if !ok || acct.PasswordHash == "" {
		return refuse(c, fail(http.StatusUnauthorized, codeInvalidCredentials), st)
	}
	if err := s.startSession(ctx, c.Response(), c.Request(), &acct); err != nil {
		slog.ErrorContext(ctx, "accounts: session", "err", err)
		return refuse(c, errUnavailable, st)
	}
	s.setDeviceCookie(c.Response(), c.Request(), email)
	return s.signedIn(c, http.StatusOK, &acct)
}

// logout: POST /oaccount/logout and /hq/account/seller/logout. Ends this
// browser's session (signed in or not, the answer is the same).
func (s *Service) logout(c echo.Context) error {
	if err := s.endSession(c.Request().Context(), c.Response(), c.Request()); err != nil {
		slog.ErrorContext(c.Request().Context(), "accounts: logout", "err", err)
		return refuse(c, errUnavailable, forms.State{})
	}
	return exchange.Done(c, http.StatusOK, envelope{status{}}, "/login?signedOut=1")
}

// isLoggedIn: GET /oaccount/isloggedin and /hq/account/seller/isloggedin →
// {"data": {"isLoggedIn": bool, "omnicustomerStatus": string}} (plus
// redirectTo when signed in).
func (s *Service) isLoggedIn(c echo.Context) error {
	noStore(c.Response())
	c.Response().Header().Add("Vary", "Cookie")
	acct, err := s.current(c.Request().Context(), c.Response(), c.Request())
	if err != nil {
		slog.ErrorContext(c.Request().Context(), "accounts: session lookup", "err", err)
		return response.Error(c, http.StatusServiceUnavailable, Message(codeUnavailable))
	}
	if acct == nil {
		return response.OK(c, envelope{status{}})
	}
	return response.OK(c, envelope{status{IsLoggedIn: true, OmnicustomerStatus: acct.Status, RedirectTo: s.Destination(acct.Status)}})
}
