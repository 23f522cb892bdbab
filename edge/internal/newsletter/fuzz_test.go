package newsletter_test

import (
	"net/http"
	"strings"
	"testing"

	"omnibus/edge/internal/httpx/response/responsetest"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage/storagetest"
	"time"
)

// FuzzSubscribeDecoders posts arbitrary JSON and form bodies: the answer is
// 200, 303 or a 4xx with an errorDetail, never a 5xx or a panic. Seeds:
// testdata/fuzz/FuzzSubscribeDecoders (run by `make test`).
func FuzzSubscribeDecoders(f *testing.F) {
	f.Add("application/json", []byte(`{"emailaddress":"ada@example.com"}`))
	f.Add("application/x-www-form-urlencoded", []byte("emailaddress=ada%40example.com&returnTo=%2Fblog"))
	f.Add("application/json", []byte(`{"emailaddress":7}`))
	f.Add("text/plain", []byte(`emailaddress=x`))
	db := storagetest.SQLite(f)
	e, s := newServer(db)
	s.Limit = ratelimit.New(1<<30, time.Nanosecond)
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		rec := post(e, contentType, string(body))
		switch {
		case rec.Code == http.StatusOK, rec.Code == http.StatusSeeOther:
		case rec.Code >= 400 && rec.Code < 500:
			responsetest.RequireErrorDetail(t, rec)
		default:
			t.Fatalf("%d %q", rec.Code, strings.TrimSpace(rec.Body.String()))
		}
	})
}
