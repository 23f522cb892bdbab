package staff_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage/storagetest"
)

// The sign-in page is never cached or indexed, its one script runs under
// the site's CSP by this answer's nonce, and it asks each visitor for the
// next step: an account sign-in, a first passkey, or the passkey.
func TestSignInPage(t *testing.T) {
	db := storagetest.SQLite(t)
	_, base := passkeyEdge(t, db)
	get := func(b *browser) (*http.Response, string) {
		req, _ := http.NewRequest("GET", base+staff.SignInPath+"?next=//evil.example", nil)
		res, err := b.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var sb strings.Builder
		buf := make([]byte, 32<<10)
		for {
			n, err := res.Body.Read(buf)
			sb.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return res, sb.String()
	}
	anon := newBrowser(t, base)
	res, body := get(anon)
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Cache-Control"), "no-store") || res.Header.Get("X-Robots-Tag") == "" {
		t.Fatalf("%d %v", res.StatusCode, res.Header)
	}
	nonce := regexp.MustCompile(`<script nonce="([^"]+)">`).FindStringSubmatch(body)
	if nonce == nil || !strings.Contains(res.Header.Get("Content-Security-Policy"), "'nonce-"+nonce[1]+"'") {
		t.Errorf("the script's nonce is not the CSP's: %q", res.Header.Get("Content-Security-Policy"))
	}
	if strings.Count(body, "<script") != 1 || !strings.Contains(body, `href="/login"`) || strings.Contains(body, "evil.example") {
		t.Errorf("anonymous page: %s", body)
	}
	pat := newBrowser(t, base)
	pat.register("pat@example.com")
	stafftest.Grant(t, db, "pat@example.com", staff.Editor)
	if _, body := get(pat); !strings.Contains(body, `id="enrol-passkey"`) {
		t.Errorf("a member without a passkey is not offered to add one: %s", body)
	}
	if code, out := pat.post("/api/v1/oaccount/logout", ""); code >= 300 {
		t.Fatalf("logout: %d %s", code, out)
	}
	if _, body := get(pat); !strings.Contains(body, `href="/login"`) || strings.Contains(body, `id="enrol-passkey"`) {
		t.Errorf("signed out: %s", body)
	}
}
