// Package browsertest sends the requests a browser on the site sends, for
// the tests of the packages that answer them (accounts, billing): one way to
// build a form or JSON post with the same-origin headers a browser adds, so
// those tests exercise the cross-site check the way a visitor does.
package browsertest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
)

// Browser is a client with its own cookie jar that does not follow redirects
// (tests read the 303s themselves).
func Browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// Do sends one request to base+path and reads the whole answer. body: a
// url.Values (a form), a string or []byte (raw JSON), nil, or anything else
// (marshalled as JSON). A request other than GET carries the same-origin
// headers a browser on base adds (Origin, Sec-Fetch-Site); headers, as name,
// value pairs, set more or override them (an empty value removes one).
func Do(t testing.TB, c *http.Client, base, method, path string, body any, headers ...string) (*http.Response, []byte) {
	t.Helper()
	var r io.Reader
	ct := ""
	switch b := body.(type) {
	case url.Values:
		r, ct = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	case string:
		r, ct = strings.NewReader(b), "application/json"
	case []byte:
		r, ct = strings.NewReader(string(b)), "application/json"
	case nil:
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		r, ct = strings.NewReader(string(j)), "application/json"
	}
	req, err := http.NewRequest(method, base+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if method != http.MethodGet {
		req.Header.Set("Origin", base)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	return res, raw
}
