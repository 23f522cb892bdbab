package accounts

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/hashqueue"
	"omnibus/edge/internal/httpx/response/responsetest"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage/storagetest"
)

// fuzzPaths are the account endpoints that decode a body.
var fuzzPaths = []string{
	"/api/v1/oaccount/register",
	"/api/v1/oaccount/login",
	"/api/v1/hq/account/seller/login",
	"/api/v1/hq/oaccount/forgotPassword",
	"/api/v1/hq/oaccount/resetPassword",
	"/api/v1/oaccount/signin/google",
}

// FuzzAccountDecoders posts arbitrary JSON and form bodies to every account
// endpoint that reads one: whatever comes in, the answer is a success, a
// redirect or a 4xx with an errorDetail, never a 5xx or a panic. Seeds:
// testdata/fuzz/FuzzAccountDecoders (run by `make test`); `make fuzz`
// explores further for a bounded time.
func FuzzAccountDecoders(f *testing.F) {
	f.Add(uint8(0), "application/json", []byte(`{"name":"Ana","email":"ana@example.com","password":"correct horse battery","storeName":"ana"}`))
	f.Add(uint8(1), "application/x-www-form-urlencoded", []byte("email=ana%40example.com&password=x"))
	f.Add(uint8(3), "application/json", []byte(`{"email":["x"]}`))
	f.Add(uint8(4), "application/json", []byte(`{"token":"`+strings.Repeat("A", 43)+`","password":"another fine one"}`))
	f.Add(uint8(5), "text/plain", []byte(`{"credential":1}`))
	db := storagetest.SQLite(f)
	svc := New(db, nil, Options{PublicURL: "http://localhost:8080", GoogleClientID: "fuzz", GoogleIssuerURL: "http://127.0.0.1:1"})
	svc.background = func(func()) {}
	svc.Hashing = hashqueue.New(2, time.Minute, 1000)
	for _, l := range []**ratelimit.Limiter{&svc.LoginByIP, &svc.LoginByAccount, &svc.LoginAnyAddress, &svc.LoginByDevice, &svc.ResetByIP, &svc.ResetByAccount, &svc.RegisterByIP, &svc.GoogleByIP} {
		*l = ratelimit.New(1<<30, time.Nanosecond)
	}
	e := echo.New()
	svc.Register(e.Group("/api/v1"))
	f.Fuzz(func(t *testing.T, which uint8, contentType string, body []byte) {
		path := fuzzPaths[int(which)%len(fuzzPaths)]
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(string(body)))
		req.Header.Set("Content-Type", contentType)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		checkAnswer(t, path, rec)
	})
}

// checkAnswer: 2xx, 303, or a 4xx with {"errorDetail"}; the Google
// endpoint may also say 503 (its provider is unreachable here).
func checkAnswer(t *testing.T, path string, rec *httptest.ResponseRecorder) {
	t.Helper()
	switch {
	case rec.Code < 300, rec.Code == http.StatusSeeOther:
		return
	case rec.Code >= 400 && rec.Code < 500, rec.Code == http.StatusServiceUnavailable && strings.HasSuffix(path, "/google"):
		responsetest.RequireErrorDetail(t, rec)
	default:
		t.Fatalf("%s: %d %q", path, rec.Code, rec.Body)
	}
}
