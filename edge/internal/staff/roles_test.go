package staff_test

import (
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/audit"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
	"omnibus/shared"
)

// studioPrefix is where every studio endpoint lives.
const studioPrefix = "/api/v1/staff"

// lowestRole is the lowest role allowed each studio action: the roles
// table (viewer reads, editor writes drafts and shares previews, publisher
// publishes and edits redirects and campaign links, admin manages members
// and reads the audit log). A studio route missing here is still tested
// (see TestEveryStudioActionByRole) and logged, so it gets its row.
var lowestRole = map[string]staff.Role{
	"GET /api/v1/staff/me":                       staff.Viewer,
	"POST /api/v1/staff/sign-out":                staff.Viewer,
	"GET /api/v1/staff/members":                  staff.Admin,
	"POST /api/v1/staff/members/grant":           staff.Admin,
	"POST /api/v1/staff/members/revoke":          staff.Admin,
	"POST /api/v1/staff/members/sessions/revoke": staff.Admin,
	"POST /api/v1/staff/members/passkeys/revoke": staff.Admin,
	"POST /api/v1/staff/members/totp":            staff.Admin,
	"GET /api/v1/staff/audit":                    staff.Admin,
	"GET /api/v1/staff/audit.csv":                staff.Admin,
	"GET /api/v1/staff/passkeys":                 staff.Viewer,
	"POST /api/v1/staff/passkeys/revoke":         staff.Viewer,
	"POST /api/v1/staff/session/recheck/options": staff.Viewer,
	"POST /api/v1/staff/session/recheck":         staff.Viewer,
	"POST /api/v1/staff/images":                  staff.Editor,
	"GET /api/v1/staff/images":                   staff.Editor,
	"DELETE /api/v1/staff/images/:id":            staff.Editor,
}

// publicStudioRoutes are the studio routes that must answer without a
// studio session: the steps that open one. Each checks its own
// preconditions (a merchant sign-in, a challenge), tested in signin_test.
var publicStudioRoutes = map[string]bool{
	"POST /api/v1/staff/sign-in/options":       true,
	"POST /api/v1/staff/sign-in/passkey":       true,
	"POST /api/v1/staff/sign-in/totp":          true,
	"POST /api/v1/staff/enrol/passkey/options": true,
	"POST /api/v1/staff/enrol/passkey":         true,
	"POST /api/v1/staff/enrol/totp":            true,
	"POST /api/v1/staff/enrol/totp/confirm":    true,
}

var param = regexp.MustCompile(`:[A-Za-z0-9_]+|\*`)

// studioRoutes are the routes registered under /api/v1/staff on the edge
// as production wires it, as "METHOD path" (HEAD twins and echo's
// not-found routes left out).
func studioRoutes(e *edgetest.Edge) []string {
	seen := map[string]bool{}
	for _, r := range e.Server.Registered() {
		switch r.Method {
		case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		default:
			continue
		}
		if strings.HasPrefix(r.Path, studioPrefix+"/") || r.Path == studioPrefix {
			seen[r.Method+" "+r.Path] = true
		}
	}
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Every studio action with every role and with no account: discovered from
// the routes the edge registers, so a new endpoint is covered the day it
// is added. Without a studio session (anonymous, or a merchant signed in
// with a password only) every action is 401; below its role 403; at or
// above it the guard lets it through (whatever the handler then says of
// the empty body). A write never lets a viewer through.
func TestEveryStudioActionByRole(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e := startEdge(t, db)
		routes := studioRoutes(e)
		if len(routes) < len(lowestRole)/2 {
			t.Fatalf("only %d studio routes found: %v", len(routes), routes)
		}
		merchant := merchantSession(t, e, "merchant@example.com")
		for _, rt := range routes {
			method, pattern, _ := strings.Cut(rt, " ")
			path := param.ReplaceAllString(pattern, "1")
			if publicStudioRoutes[rt] {
				continue
			}
			// No account, and a merchant session alone.
			for who, c := range map[string]*http.Cookie{"no account": nil, "password only": merchant} {
				if code, body, _ := call(t, e, method, path, "{}", c); code != http.StatusUnauthorized || errorDetail(body) == "" {
					t.Errorf("%s with %s: %d %q, want 401 with errorDetail", rt, who, code, body)
				}
			}
			lowest := staff.None
			for _, role := range staff.Roles {
				// A fresh member and session per call: an action may end
				// its own session (sign-out) or change its member.
				email := fmt.Sprintf("%s-%d@example.com", role, time.Now().UnixNano())
				code, body, _ := call(t, e, method, path, "{}", stafftest.SignIn(t, db, email, role))
				allowed := code != http.StatusUnauthorized && code != http.StatusForbidden
				if code == http.StatusForbidden && errorDetail(body) == "" {
					t.Errorf("%s as %s: 403 without errorDetail: %q", rt, role, body)
				}
				if allowed && lowest == staff.None {
					lowest = role
				}
				if !allowed && lowest != staff.None {
					t.Errorf("%s: %s may, but %s may not (%d %q): roles must include the ones below", rt, lowest, role, code, body)
				}
			}
			if lowest == staff.None {
				t.Errorf("%s: no role may do it", rt)
				continue
			}
			if method != http.MethodGet && lowest == staff.Viewer && !strings.HasSuffix(rt, "/sign-out") &&
				!strings.Contains(rt, "/passkeys") && !strings.Contains(rt, "/session/recheck") {
				t.Errorf("%s: a viewer may write", rt)
			}
			if want, ok := lowestRole[rt]; ok && want != lowest {
				t.Errorf("%s: lowest role %s, want %s", rt, lowest, want)
			} else if !ok {
				t.Logf("%s: lowest role %s (add it to lowestRole)", rt, lowest)
			}
		}
	})
}

// merchantSession registers an account through the site and returns its
// merchant session cookie (a password sign-in, no studio session).
func merchantSession(t *testing.T, e *edgetest.Edge, email string) *http.Cookie {
	t.Helper()
	body := `{"name":"Mia Merchant","email":"` + email + `","password":"correct horse battery","storeName":"` + strings.Split(email, "@")[0] + `-store"}`
	code, resBody, h := call(t, e, http.MethodPost, "/api/v1/oaccount/register", body)
	if code != http.StatusCreated {
		t.Fatalf("register %s: %d %q", email, code, resBody)
	}
	for _, c := range (&http.Response{Header: h}).Cookies() {
		if c.Name == shared.HTTP.SessionCookie && c.Value != "" {
			return c
		}
	}
	t.Fatalf("register %s: no session cookie in %v", email, h)
	return nil
}

// No studio endpoint can change or delete an audit entry: every studio
// route, with every method, as an admin with a fresh session and bodies
// naming the entries, leaves every entry as it was; the database refuses
// an UPDATE or DELETE too.
func TestAuditEntriesCannotBeChangedOrDeleted(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e := startEdge(t, db)
		stafftest.Grant(t, db, "admin@example.com", staff.Admin)
		before := allEntries(t, db)
		if len(before) == 0 {
			t.Fatal("no entries to protect")
		}
		id := before[0].ID
		bodies := []string{"{}", fmt.Sprintf(`{"id":%d,"action":"x","detail":"changed","at":"2000-01-01T00:00:00Z"}`, id),
			fmt.Sprintf(`{"ids":[%d],"email":"admin@example.com","reason":"cover tracks","role":"admin"}`, id)}
		paths := map[string]bool{}
		for _, rt := range studioRoutes(e) {
			_, pattern, _ := strings.Cut(rt, " ")
			paths[param.ReplaceAllString(pattern, fmt.Sprint(id))] = true
		}
		for _, p := range []string{"/api/v1/staff/audit/" + fmt.Sprint(id), "/api/v1/staff/audit"} {
			paths[p] = true
		}
		for p := range paths {
			if strings.HasSuffix(p, "/revoke") || strings.HasSuffix(p, "/sign-out") {
				continue // would end the admin's own membership or session, not touch the log
			}
			for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
				for _, b := range bodies {
					call(t, e, m, p, b, stafftest.SignIn(t, db, "admin@example.com", staff.None))
				}
			}
		}
		after := allEntries(t, db)
		kept := map[uint64]audit.Entry{}
		for _, a := range after {
			kept[a.ID] = a
		}
		for _, b := range before {
			if a, ok := kept[b.ID]; !ok {
				t.Errorf("entry %d deleted", b.ID)
			} else if !reflect.DeepEqual(a, b) {
				t.Errorf("entry %d changed: %+v, was %+v", b.ID, a, b)
			}
		}
		if err := db.Exec("UPDATE audit_entries SET detail = 'x' WHERE id = ?", id).Error; err == nil {
			t.Error("the database let an entry be updated")
		}
		if err := db.Exec("DELETE FROM audit_entries WHERE id = ?", id).Error; err == nil {
			t.Error("the database let an entry be deleted")
		}
		if got := allEntries(t, db); len(got) != len(after) {
			t.Errorf("%d entries, want %d", len(got), len(after))
		}
	})
}

func allEntries(t *testing.T, db *storage.DB) []audit.Entry {
	t.Helper()
	var out []audit.Entry
	if err := db.Order("id").Find(&out).Error; err != nil {
		t.Fatal(err)
	}
	for i := range out {
		out[i].At = out[i].At.UTC()
	}
	return out
}
