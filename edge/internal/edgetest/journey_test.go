package edgetest_test

import (
	"encoding/json"
	stdhtml "html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/edgetest"
	"omnibus/shared"
)

// walkHeader marks the test's own requests: any other request that reaches
// the edge while pages render came from somewhere else (the renderer).
const walkHeader = "X-Test-Walk"

// The renderer never calls the edge: a merchant part-way
// through the journey and a signed-out visitor open every page of the route
// table and every journey page with its query (the order just paid, the
// test-mode payment), and each journey page shows the merchant's data (the
// store, the pending order, the amount to pay, the receipt). The edge sees
// the walk's own requests and nothing else: no request of the renderer's
// reaches it, for /api or any other path.
func TestRendererNeverCallsTheEdge(t *testing.T) {
	var walking atomic.Bool
	var mu sync.Mutex
	var others []string
	e := edgetest.Start(t, edgetest.Options{RealRenderer: true, Setup: func(e *edgetest.Edge) {
		e.Server.Use(func(next echo.HandlerFunc) echo.HandlerFunc {
			return func(c echo.Context) error {
				if r := c.Request(); walking.Load() && r.Header.Get(walkHeader) == "" {
					mu.Lock()
					others = append(others, r.Method+" "+r.URL.RequestURI()+" ("+r.UserAgent()+")")
					mu.Unlock()
				}
				return next(c)
			}
		})
	}})
	jar, _ := cookiejar.New(nil)
	merchant := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	anon := &http.Client{CheckRedirect: merchant.CheckRedirect}
	do := func(c *http.Client, method, path string, form url.Values) (*http.Response, string) {
		t.Helper()
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, _ := http.NewRequest(method, e.URL+path, body)
		req.Header.Set("User-Agent", edgetest.ChromeUA)
		req.Header.Set(walkHeader, "1")
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Sec-Fetch-Site", "same-origin")
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, stdhtml.UnescapeString(string(b))
	}
	page := func(c *http.Client, path string, want ...string) {
		t.Helper()
		res, body := do(c, http.MethodGet, path, nil)
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d, want 200", path, res.StatusCode)
		}
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("GET %s: the page does not show %q", path, w)
			}
		}
	}
	// Follows a 303 from a form post or a payment link; returns where it led.
	seeOther := func(method, path string, form url.Values) string {
		t.Helper()
		res, _ := do(merchant, method, path, form)
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("%s %s: %d, want 303", method, path, res.StatusCode)
		}
		loc, _ := url.Parse(res.Header.Get("Location"))
		return loc.RequestURI()
	}

	// A merchant registers (a form post, as without JavaScript) and picks a plan.
	const store = "Walk Pet Shop"
	email := "walk@example.com"
	if res, _ := do(merchant, http.MethodPost, "/register", url.Values{"name": {"Mira"}, "email": {email},
		"password": {"correct horse battery"}, "storeName": {store}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("register: %d", res.StatusCode)
	}
	pay := seeOther(http.MethodPost, "/api/v1/licenses/initialiseLicenses", url.Values{"planId": {"growth"}})
	testPayment := seeOther(http.MethodGet, pay, nil)
	if !strings.HasPrefix(testPayment, "/test-payment?session=tm_") {
		t.Fatalf("payment page %q, want the test-mode page", testPayment)
	}
	session := strings.TrimPrefix(testPayment, "/test-payment?session=")
	var order struct {
		ID         string `json:"id"`
		TotalPaise int64  `json:"totalPaise"`
	}
	orderOf := func(path string) {
		t.Helper()
		res, body := do(merchant, http.MethodGet, path, nil)
		var v struct{ Data json.RawMessage }
		if json.Unmarshal([]byte(body), &v) != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, res.StatusCode, body)
		}
		var d struct{ Order json.RawMessage }
		if json.Unmarshal(v.Data, &d) == nil && d.Order != nil {
			v.Data = d.Order
		}
		json.Unmarshal(v.Data, &order)
	}
	orderOf("/api/v1/payments/test-mode/" + session)

	routes := pagePaths(t)
	walking.Store(true)
	for _, p := range routes {
		do(merchant, http.MethodGet, p, nil)
		do(anon, http.MethodGet, p, nil)
	}
	page(merchant, "/contact-us", "Your store "+store+" is created", email)
	page(merchant, "/choose-plan", `data-pending-order="`+order.ID+`"`)
	page(merchant, testPayment, "/api/v1/payments/test-mode/"+session+"/pay", "(test mode)")
	// A client-side navigation loads the same data (React Router's /x.data).
	page(merchant, "/choose-plan.data", order.ID)
	page(merchant, "/contact-us.data", email)
	walking.Store(false)

	// Paid: the merchant home shows the receipt, and a PetPawlor order its summary.
	home := seeOther(http.MethodPost, "/api/v1/payments/test-mode/"+session+"/pay", url.Values{})
	petpawlor := seeOther(http.MethodPost, "/api/v1/petpawlor/license/purchase", url.Values{"quantity": {"2"}})
	petSession := strings.TrimPrefix(seeOther(http.MethodGet, petpawlor, nil), "/test-payment?session=")
	done := seeOther(http.MethodPost, "/api/v1/payments/test-mode/"+petSession+"/pay", url.Values{})
	walking.Store(true)
	// Right after the first plan payment the merchant is new here, not back.
	page(merchant, home, "Welcome to "+store, "data-receipt", order.ID)
	page(merchant, done, "data-order=\"paid\"", "2 × PetPawlor")
	page(merchant, strings.Replace(home, "/landing-page?", "/landing-page.data?", 1), order.ID, "paid")
	// Signed out, the same addresses show nobody's data.
	if res, body := do(anon, http.MethodGet, home, nil); res.StatusCode != http.StatusOK || strings.Contains(body, "data-receipt") || strings.Contains(body, store) {
		t.Errorf("GET %s signed out: %d, shows the merchant's receipt or store", home, res.StatusCode)
	}
	if res, _ := do(anon, http.MethodGet, testPayment, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET %s signed out: %d, want 404", testPayment, res.StatusCode)
	}
	walking.Store(false)

	mu.Lock()
	defer mu.Unlock()
	if len(others) > 0 {
		t.Errorf("while the pages rendered, the edge was asked %d time(s) by someone other than the visitor, e.g. %s", len(others), others[0])
	}
}

// pagePaths is every page of the route table without a parameter.
func pagePaths(t *testing.T) []string {
	t.Helper()
	var paths []string
	for _, r := range shared.Routes.Routes {
		if !strings.Contains(r.Path, ":") {
			paths = append(paths, r.Path)
		}
	}
	return paths
}
