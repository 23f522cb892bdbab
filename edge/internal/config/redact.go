package config

import (
	"net/url"
	"regexp"
	"strings"
)

// scheme is what may be shown before a malformed URL's "//": one of the
// secret-bearing settings' schemes, with or without its colon.
var scheme = regexp.MustCompile(`^(?i)(postgres|postgresql|smtp|smtps):?$`)

// redact hides a secret, saying only whether it is set.
func redact(s string) string {
	if s == "" {
		return ""
	}
	return "[redacted]"
}

// redactURL shows a secret-bearing URL without its secrets: the scheme,
// host and path stay (they are what an operator needs to spot a typo), the
// user information and the query (where passwords and keys live) do not.
// A malformed URL is redacted by its text, so a typo such as
// "postgres//app:pw@host/x" (no colon after the scheme, so no user
// information to a URL parser) never shows the password either.
func redactURL(s string) string {
	if s == "" {
		return ""
	}
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && u.Host != "" && u.Opaque == "" &&
		(u.User != nil) == strings.Contains(s, "@") && strings.Count(s, "@") <= 1 {
		user := u.User != nil
		u.User, u.Fragment, u.RawFragment = nil, "", ""
		if u.RawQuery != "" || u.ForceQuery {
			u.RawQuery, u.ForceQuery = "[redacted]", false
		}
		shown := u.String()
		if user {
			shown = strings.Replace(shown, "://", "://[redacted]@", 1)
		}
		return shown
	}
	// By its text: everything before the last "@" (after any "//") may be
	// a password, and so may anything after a "?" or "#".
	at := strings.LastIndex(s, "@")
	if at < 0 {
		return "[redacted]" // no telling where a password would be
	}
	head, tail := "", s[at+1:]
	if i := strings.Index(s, "//"); i >= 0 && i < at && scheme.MatchString(s[:i]) {
		head = s[:i+2]
	}
	if i := strings.IndexAny(tail, "?#"); i >= 0 {
		tail = tail[:i] + "?[redacted]"
	}
	return head + "[redacted]@" + tail
}
