// Package validation is the edge's side of shared/validation.json: the one
// description of every form field's rule (lengths, the e-mail pattern, the
// characters no text field takes) that the renderer's zod schemas are built
// from too. Packages map its problems to their own words.
package validation

import (
	"encoding/json"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"omnibus/shared"
)

// Problems: why a value is refused; "" means it is valid.
const (
	OK        = ""
	Required  = "required"
	Invalid   = "invalid"
	TooShort  = "tooShort"
	TooLong   = "tooLong"
	Forbidden = "forbidden"
)

// Rule is one field of validation.json.
type Rule struct {
	Required  bool   `json:"required"`
	MinLength int    `json:"minLength"`
	MaxLength int    `json:"maxLength"`
	Multiline bool   `json:"multiline"`
	Pattern   string `json:"pattern"`
	// Reserved are values the platform keeps (the store names that would
	// be its own subdomains).
	Reserved []string `json:"reserved"`
	pattern  *regexp.Regexp
}

var rules = func() (r struct {
	Forbidden struct {
		Categories       []string  `json:"categories"`
		Ranges           [][2]rune `json:"ranges"`
		MultilineAllowed []rune    `json:"multilineAllowed"`
		tables           []*unicode.RangeTable
	} `json:"forbidden"`
	Fields map[string]*Rule `json:"fields"`
}) {
	if err := json.Unmarshal(shared.ValidationJSON, &r); err != nil {
		panic("validation: shared/validation.json: " + err.Error())
	}
	for _, c := range r.Forbidden.Categories {
		t := unicode.Categories[c]
		if t == nil {
			panic("validation: shared/validation.json: unknown Unicode category " + c)
		}
		r.Forbidden.tables = append(r.Forbidden.tables, t)
	}
	for name, f := range r.Fields {
		if f.MaxLength <= 0 {
			panic("validation: shared/validation.json: field " + name + " needs a maxLength")
		}
		if f.Pattern != "" {
			f.pattern = regexp.MustCompile(f.Pattern)
		}
	}
	for _, name := range []string{"email", "name", "password", "storeName", "company", "phone", "message"} {
		if r.Fields[name] == nil {
			panic("validation: shared/validation.json has no field " + name)
		}
	}
	return r
}()

// Field is the rule of a field of validation.json; it panics on an unknown
// name (a programming error).
func Field(name string) Rule {
	f := rules.Fields[name]
	if f == nil {
		panic("validation: unknown field " + name)
	}
	return *f
}

// HasForbidden reports a code point no text field takes (or bytes that are
// not UTF-8); a multiline field also takes tab, line feed and carriage return.
func HasForbidden(s string, multiline bool) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for _, c := range s {
		if forbidden(c, multiline) {
			return true
		}
	}
	return false
}

func forbidden(c rune, multiline bool) bool {
	for _, r := range rules.Forbidden.Ranges {
		if c >= r[0] && c <= r[1] {
			if multiline {
				for _, a := range rules.Forbidden.MultilineAllowed {
					if c == a {
						return false
					}
				}
			}
			return true
		}
	}
	// Checked after the ranges: the categories hold no control character a
	// multiline field takes. Cf is a short table; no ASCII code point is in it.
	if c >= utf8.RuneSelf {
		for _, t := range rules.Forbidden.tables {
			if unicode.Is(t, c) {
				return true
			}
		}
	}
	return false
}

// Check trims value and checks it against the named field's rule. It
// returns the value to use (an e-mail address lower-cased) and the problem.
func Check(field, value string) (string, string) {
	f := Field(field)
	v := value
	if field != "password" { // a password is used exactly as typed
		v = strings.TrimSpace(value)
	}
	if strings.TrimSpace(v) == "" {
		if f.Required {
			return "", Required
		}
		return "", OK
	}
	n := utf8.RuneCountInString(v)
	if f.pattern != nil {
		if n > f.MaxLength || HasForbidden(v, false) || !f.pattern.MatchString(v) {
			return "", Invalid
		}
		if field == "email" {
			v = strings.ToLower(v)
		}
		return v, OK
	}
	switch {
	case field != "password" && HasForbidden(v, f.Multiline):
		return "", Forbidden
	case n < f.MinLength:
		return "", TooShort
	case n > f.MaxLength:
		return "", TooLong
	}
	return v, OK
}

// Email is Check("email", raw): the trimmed, lower-cased address, or
// Required / Invalid.
func Email(raw string) (string, string) { return Check("email", raw) }

// Clean drops the code points no single-line text field takes (for text
// that comes from elsewhere, such as the name on a Google account).
func Clean(s string) string {
	return strings.Map(func(c rune) rune {
		if c == utf8.RuneError || forbidden(c, false) {
			return -1
		}
		return c
	}, s)
}

// Shown is a typed value as a refused form shows it again in its field
// (never a password's): trimmed, without the code points the field does not
// take, line breaks as "\n", cut to the field's maximum length, so what the
// edge hands back is bounded by the rules of validation.json.
func Shown(field, raw string) string {
	f := Field(field)
	v := strings.TrimSpace(strings.ToValidUTF8(strings.ReplaceAll(raw, "\r\n", "\n"), ""))
	v = strings.Map(func(c rune) rune {
		if forbidden(c, f.Multiline) || c == '\r' {
			return -1
		}
		return c
	}, v)
	if utf8.RuneCountInString(v) > f.MaxLength {
		v = string([]rune(v)[:f.MaxLength])
	}
	return v
}
