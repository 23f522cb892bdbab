package contact_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/httpx/response/responsetest"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage/storagetest"
)

// FuzzContactDecoders posts arbitrary JSON and form bodies: the answer is
// 201, 303 or a 4xx with an errorDetail, never a 5xx or a panic. Seeds:
// testdata/fuzz/FuzzContactDecoders (run by `make test`).
func FuzzContactDecoders(f *testing.F) {
	f.Add("application/json", []byte(`{"topic":"contact-us","name":"Ana","email":"ana@example.com","message":"We would like a demo."}`))
	f.Add("application/x-www-form-urlencoded", []byte("topic=career&name=Ana&email=ana%40example.com&message=Hello+there+friends"))
	f.Add("application/json", []byte(`{"topic":"contact-us","name":["x"]}`))
	f.Add("text/plain", []byte(`topic=contact-us`))
	db := storagetest.SQLite(f)
	e, s := newServer(db)
	s.Limit = ratelimit.New(1<<30, time.Nanosecond)
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		rec := post(e, contentType, string(body))
		switch {
		case rec.Code == http.StatusCreated, rec.Code == http.StatusSeeOther:
		case rec.Code >= 400 && rec.Code < 500:
			responsetest.RequireErrorDetail(t, rec)
		default:
			t.Fatalf("%d %q", rec.Code, strings.TrimSpace(rec.Body.String()))
		}
	})
}
