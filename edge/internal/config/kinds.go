package config

import (
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"omnibus/edge/internal/httpx/request"
)

// A Setting is one environment variable of the table (Settings).
type Setting struct {
	Name    string // the variable
	Type    string // the form of its value, for the docs
	Default string // as written in the environment; "" is empty, off or zero
	Doc     string // what it does (Markdown, one paragraph)
	Secret  bool   // never logged, never echoed in an error
	load    func(l *loader, c *Config)
	value   func(c Config) slog.Value
}

// A kind is how one type of value parses, and what an error says is
// wanted.
type kind[T any] struct {
	typ   string                 // for the docs
	want  string                 // the expected form, for errors
	parse func(string) (T, bool) // the value, or false when it is not of the form
	// hide, on a secret kind, is how a value is shown in the log and in
	// errors: never a password, key or token.
	hide func(string) string
}

// row is one setting: its variable, kind, default, Config field and doc.
func row[T any](name string, k kind[T], def string, field func(*Config) *T, doc string) Setting {
	return Setting{
		Name: name, Type: k.typ, Default: def, Doc: doc, Secret: k.hide != nil,
		load: func(l *loader, c *Config) { *field(c) = parse(l, name, def, k) },
		value: func(c Config) slog.Value {
			v := *field(&c)
			switch x := any(v).(type) {
			case string:
				if k.hide != nil {
					x = k.hide(x)
				}
				return slog.StringValue(x)
			case time.Duration: // "15s", not nanoseconds (slog's JSON handler writes an int)
				return slog.StringValue(x.String())
			case slog.Level:
				return slog.StringValue(x.String())
			}
			return slog.AnyValue(v)
		},
	}
}

// loader reads variables and collects one error per invalid one.
type loader struct {
	lookup func(string) (string, bool)
	set    map[string]bool // the variables set (non-empty)
	failed map[string]bool // the variables already reported
	errs   []string
}

// get is the variable's value; an unset or empty variable takes the default.
func (l *loader) get(key string) (string, bool) {
	v, ok := l.lookup(key)
	if !ok || v == "" {
		return "", false
	}
	l.set[key] = true
	return v, true
}

// fail reports a variable, showing value as given (already hidden for a
// secret).
func (l *loader) fail(key, value, want string) {
	l.failed[key] = true
	l.errs = append(l.errs, fmt.Sprintf("%s=%q: want %s", key, value, want))
}

// parse reads one variable of kind k: unset or empty takes def; a value
// the kind refuses is reported (hidden if secret) and also takes def.
func parse[T any](l *loader, key, def string, k kind[T]) T {
	v, ok := l.get(key)
	if ok {
		x, ok := k.parse(v)
		if ok {
			return x
		}
		if k.hide != nil {
			v = k.hide(v)
		}
		l.fail(key, v, k.want)
	}
	var zero T
	if def == "" {
		return zero
	}
	x, ok := k.parse(def)
	if !ok {
		panic(fmt.Sprintf("config: the default of %s, %q, is not %s", key, def, k.want))
	}
	return x
}

// The kinds of the table.
var (
	text = kind[string]{typ: "text", parse: func(v string) (string, bool) { return v, true }}

	boolean = kind[bool]{typ: "boolean", want: "1 or 0 (true or false)", parse: func(v string) (bool, bool) {
		b, err := strconv.ParseBool(v)
		return b, err == nil
	}}

	port = kind[int]{typ: "port", want: "a TCP port, 1 to 65535", parse: func(v string) (int, bool) {
		n, err := strconv.Atoi(v)
		return n, err == nil && n >= 1 && n <= 65535
	}}

	// count is a positive whole number.
	count = kind[int]{typ: "number", want: "a whole number of at least 1", parse: func(v string) (int, bool) {
		n, err := strconv.Atoi(v)
		return n, err == nil && n >= 1
	}}

	// prefixLen is an IPv6 prefix length.
	prefixLen = kind[int]{typ: "number", want: "an IPv6 prefix length, 1 to 128", parse: func(v string) (int, bool) {
		n, err := strconv.Atoi(v)
		return n, err == nil && n >= 1 && n <= 128
	}}

	// duration is a positive Go duration ("30s", "15m", "168h"; no "d").
	duration = kind[time.Duration]{typ: "duration", want: "a positive duration with a unit: s, m or h, such as 30s, 15m or 168h (days are not a unit)", parse: func(v string) (time.Duration, bool) {
		d, err := time.ParseDuration(v)
		return d, err == nil && d > 0
	}}

	// size is a non-negative number of bytes, plain or with a KiB, MiB or
	// GiB suffix.
	size = kind[int64]{typ: "bytes", want: "a size in bytes, 0 or more, optionally with KiB, MiB or GiB (such as 67108864 or 64MiB)", parse: func(v string) (int64, bool) {
		num, mult := v, int64(1)
		for suffix, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
			if strings.HasSuffix(v, suffix) {
				num, mult = strings.TrimSpace(strings.TrimSuffix(v, suffix)), m
			}
		}
		n, err := strconv.ParseInt(num, 10, 64)
		return n * mult, err == nil && n >= 0 && n <= (1<<62)/mult
	}}

	level = kind[slog.Level]{typ: "level", want: "one of debug, info, warn, error", parse: func(v string) (slog.Level, bool) {
		var lv slog.Level
		return lv, lv.UnmarshalText([]byte(v)) == nil
	}}

	hostPort = kind[string]{typ: "host:port", want: "host:port or :port, such as :8080 or 127.0.0.1:8080", parse: func(v string) (string, bool) {
		_, p, err := net.SplitHostPort(v)
		n, perr := strconv.Atoi(p)
		return v, err == nil && perr == nil && n >= 0 && n <= 65535
	}}

	// origin is an http(s) origin with no path, query or fragment, kept
	// without a trailing slash.
	origin = kind[string]{typ: "origin", want: "an http or https origin with no path, such as https://omnibus.example", parse: func(v string) (string, bool) {
		u, ok := webURL(v, "http", "https")
		if !ok || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
			return "", false
		}
		return u.Scheme + "://" + u.Host, true
	}}

	httpURL = kind[string]{typ: "URL", want: "an absolute http or https URL", parse: func(v string) (string, bool) {
		_, ok := webURL(v, "http", "https")
		return strings.TrimRight(v, "/"), ok
	}}

	// httpURLs is a comma-separated list of httpURL; shown without user
	// information or query, as they may hold a CDN's credentials.
	httpURLs = kind[string]{typ: "URLs", want: "comma-separated absolute http or https URLs", hide: func(v string) string {
		var shown []string
		for _, u := range strings.Split(v, ",") {
			shown = append(shown, redactURL(strings.TrimSpace(u)))
		}
		return strings.Join(shown, ",")
	}, parse: func(v string) (string, bool) {
		for _, u := range strings.Split(v, ",") {
			if _, ok := webURL(strings.TrimSpace(u), "http", "https"); !ok && strings.TrimSpace(u) != "" {
				return "", false
			}
		}
		return v, true
	}}

	// httpsURL refuses plain http except to loopback hosts (a local
	// provider in development and tests).
	httpsURL = kind[string]{typ: "URL", want: "an https URL (plain http only to localhost)", parse: func(v string) (string, bool) {
		u, ok := webURL(v, "http", "https")
		return strings.TrimRight(v, "/"), ok && (u.Scheme == "https" || isLoopback(u.Hostname()))
	}}

	pathOrURL = kind[string]{typ: "path or URL", want: "a path on this site (/landing-page) or an absolute http or https URL", parse: func(v string) (string, bool) {
		if strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") && !strings.ContainsAny(v, "\\ \t\r\n") {
			return v, true
		}
		_, ok := webURL(v, "http", "https")
		return v, ok
	}}

	postgresURL = kind[string]{typ: "URL, secret", want: "a PostgreSQL URL, such as postgres://user:pass@host:5432/db?sslmode=require", hide: redactURL, parse: func(v string) (string, bool) {
		_, ok := webURL(v, "postgres", "postgresql")
		return v, ok
	}}

	smtpURL = kind[string]{typ: "URL, secret", want: "smtp://user:pass@host:587 or smtps://user:pass@host:465", hide: redactURL, parse: func(v string) (string, bool) {
		u, ok := webURL(v, "smtp", "smtps")
		return v, ok && u.Hostname() != ""
	}}

	address = kind[string]{typ: "e-mail address", want: `an e-mail address, such as "Omnibus <no-reply@omnibus.example>" or sales@omnibus.example`, parse: func(v string) (string, bool) {
		_, err := mail.ParseAddress(v)
		return v, err == nil
	}}

	proxies = kind[request.Proxies]{typ: "CIDR list", want: "comma-separated CIDRs or IP addresses, such as 10.0.0.0/8, 192.0.2.7", parse: func(v string) (request.Proxies, bool) {
		ps, err := request.ParseProxies(v)
		return ps, err == nil
	}}
)

// oneOf is one of a few words, matched without regard to case.
func oneOf(allowed ...string) kind[string] {
	return kind[string]{typ: strings.Join(allowed, " or "), want: "one of " + strings.Join(allowed, ", "), parse: func(v string) (string, bool) {
		for _, a := range allowed {
			if strings.EqualFold(v, a) {
				return a, true
			}
		}
		return "", false
	}}
}

// secret is a token, key or password of at least minLen characters, never
// shown.
func secret(minLen int) kind[string] {
	return kind[string]{typ: "secret", want: fmt.Sprintf("at least %d characters", minLen), hide: redact, parse: func(v string) (string, bool) {
		return v, len(v) >= minLen
	}}
}

// webURL parses an absolute URL whose scheme is one of schemes.
func webURL(v string, schemes ...string) (*url.URL, bool) {
	u, err := url.Parse(v)
	return u, err == nil && u.Host != "" && slices.Contains(schemes, u.Scheme)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
