package accounts

import (
	"errors"
	"net/http"
	"strings"
	"unicode"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"omnibus/edge/internal/httpx/response"
	"omnibus/edge/internal/validation"
)

// Store names become a subdomain: 3-63 (shared/validation.json) of a-z, 0-9
// and inner hyphens.
var (
	minStoreName = validation.Field("storeName").MinLength
	maxStoreName = validation.Field("storeName").MaxLength
)

// reservedStoreNames are subdomains the platform keeps for itself or that
// would mislead visitors (shared/validation.json).
var reservedStoreNames = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range validation.Field("storeName").Reserved {
		m[n] = true
	}
	return m
}()

// Slug normalises a wanted store name to the subdomain it would get:
// lower-case ASCII letters and digits (each character by its simple lower
// case: İ is i), every other run of characters one hyphen, no hyphen at
// either end ("My Store!" → "my-store"). shared/validation-cases.json's
// slugs are the rule's cases, which the renderer's slugify runs too.
func Slug(name string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range name {
		r = unicode.ToLower(r)
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
			continue
		}
		hyphen = true
	}
	return b.String()
}

// storeNameProblem says why a slug cannot be a store name (without looking
// at the database), or "".
func storeNameProblem(raw, slug string) string {
	switch {
	case strings.TrimSpace(raw) == "":
		return codeStoreNameRequired
	case validation.HasForbidden(raw, false):
		return codeStoreNameInvalid
	case len(slug) < minStoreName:
		return codeStoreNameTooShort
	case len(slug) > maxStoreName:
		return codeStoreNameTooLong
	case reservedStoreNames[slug]:
		return codeStoreNameReserved
	}
	return ""
}

// availability is the answer of check-omnidomain-availability.
type availability struct {
	Name      string `json:"name"`
	Available bool   `json:"available"`
	Message   string `json:"message"`
}

// checkAvailability answers GET /onboarding/check-omnidomain-availability?name=…
// with {"data": {"name": slug, "available": bool, "message": "…"}}. A name
// that is empty is a 400; one that is too short, too long, reserved or taken
// is simply not available, with the reason.
func (s *Service) checkAvailability(c echo.Context) error {
	if ok, wait := s.AvailabilityByIP.Allow(c.Request().Context(), s.AvailabilityByIP.Client(c.Request())); !ok {
		return response.TooManyRequests(c, wait)
	}
	raw := c.QueryParam("name")
	if len(raw) > 4*maxStoreName {
		raw = raw[:4*maxStoreName]
	}
	slug := Slug(raw)
	if code := storeNameProblem(raw, slug); code == codeStoreNameRequired {
		return response.Error(c, http.StatusBadRequest, Message(code))
	} else if code != "" {
		return response.OK(c, envelope{availability{Name: slug, Message: Message(code)}})
	}
	err := s.db.WithContext(c.Request().Context()).Select("id").Where("store_name = ?", slug).First(&Account{}).Error
	switch {
	case err == nil:
		return response.OK(c, envelope{availability{Name: slug, Message: Message(codeStoreNameTaken)}})
	case errors.Is(err, gorm.ErrRecordNotFound):
		return response.OK(c, envelope{availability{Name: slug, Available: true, Message: Message(codeStoreNameAvailable)}})
	default:
		return response.Error(c, http.StatusServiceUnavailable, Message(codeUnavailable))
	}
}

// storeTitle is the store name as the merchant typed it, for their pages
// (the welcome, the merchant home): spaces trimmed and collapsed, at most 100 characters.
func storeTitle(raw string) string {
	t := strings.Join(strings.Fields(raw), " ")
	if r := []rune(t); len(r) > 100 {
		t = string(r[:100])
	}
	return t
}
