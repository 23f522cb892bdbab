package staff_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// A studio session is refused once expired, once its member's role is
// revoked, and for a state change sent by another site; the actions that
// are re-checked (grant, revoke) want a recent second factor.
func TestStudioSessionLimits(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e := startEdge(t, db)
		adminID := stafftest.Grant(t, db, "admin@example.com", staff.Admin)
		stafftest.Account(t, db, "ed@example.com")

		expired := stafftest.Session(t, db, adminID, time.Now().UTC().Add(-9*time.Hour), 8*time.Hour)
		if code, body, _ := call(t, e, "GET", "/api/v1/staff/me", "", expired); code != 401 || !strings.Contains(body, staff.SignInPath) {
			t.Errorf("expired session: %d %q", code, body)
		}
		stale := stafftest.Session(t, db, adminID, time.Now().UTC().Add(-time.Hour), 8*time.Hour)
		if code, body, _ := call(t, e, "GET", "/api/v1/staff/me", "", stale); code != 200 || !strings.Contains(body, `"fresh":false`) {
			t.Errorf("an hour-old session reads: %d %q", code, body)
		}
		grant := `{"email":"ed@example.com","role":"editor","reason":"writes the spring posts"}`
		if code, body, _ := call(t, e, "POST", "/api/v1/staff/members/grant", grant, stale); code != 401 || !strings.Contains(body, `"reauthenticate":true`) {
			t.Errorf("grant on a session checked an hour ago: %d %q, want 401 reauthenticate", code, body)
		}
		fresh := stafftest.SignIn(t, db, "admin@example.com", staff.None)
		// From another site: refused whatever the session.
		req, _ := http.NewRequest("POST", e.URL+"/api/v1/staff/members/grant", strings.NewReader(grant))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "https://evil.example")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.AddCookie(fresh)
		if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 403 {
			t.Errorf("cross-site grant: %v %v", res.StatusCode, err)
		}
		if code, body, _ := call(t, e, "POST", "/api/v1/staff/members/grant", `{"email":"ed@example.com","role":"editor"}`, fresh); code != 400 || !strings.Contains(body, `"reason"`) {
			t.Errorf("grant without a reason: %d %q", code, body)
		}
		if code, body, _ := call(t, e, "POST", "/api/v1/staff/members/grant", grant, fresh); code != 200 || !strings.Contains(body, `"role":"editor"`) {
			t.Fatalf("grant: %d %q", code, body)
		}
		ed := stafftest.SignIn(t, db, "ed@example.com", staff.None)
		if code, body, _ := call(t, e, "GET", "/api/v1/staff/me", "", ed); code != 200 || !strings.Contains(body, `"role":"editor"`) {
			t.Errorf("editor's session: %d %q", code, body)
		}
		// Admins cannot leave the studio without one.
		if code, body, _ := call(t, e, "POST", "/api/v1/staff/members/revoke", `{"email":"admin@example.com","reason":"leaving"}`, fresh); code != 409 {
			t.Errorf("revoking the last admin: %d %q", code, body)
		}
		if code, body, _ := call(t, e, "POST", "/api/v1/staff/members/revoke", `{"email":"ed@example.com","reason":"left the team"}`, fresh); code != 200 {
			t.Fatalf("revoke: %d %q", code, body)
		}
		if code, _, _ := call(t, e, "GET", "/api/v1/staff/me", "", ed); code != 401 {
			t.Errorf("revoked member's session still works: %d", code)
		}
		// The audit log has both, by the admin, with the client address.
		code, body, _ := call(t, e, "GET", "/api/v1/staff/audit?action=role.&actor=ADMIN@example.com", "", fresh)
		var list struct {
			Entries []struct{ Actor, Action, ItemID, Detail, ClientIP string }
		}
		json.Unmarshal([]byte(body), &list)
		if code != 200 || len(list.Entries) != 2 || list.Entries[0].Action != "role.revoked" || list.Entries[1].Action != "role.granted" ||
			list.Entries[0].ClientIP != "127.0.0.1" || !strings.Contains(list.Entries[0].Detail, "left the team") || list.Entries[1].ItemID != "ed@example.com" {
			t.Errorf("audit: %d %s", code, body)
		}
	})
}

// The audit log's CSV has a header, the filtered rows, and no cell a
// spreadsheet would run as a formula; the export itself is recorded.
func TestAuditCSV(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e := startEdge(t, db)
		stafftest.Account(t, db, "=cmd|' /C calc'!A0@example.com")
		admin := stafftest.SignIn(t, db, "admin@example.com", staff.Admin)
		call(t, e, "POST", "/api/v1/staff/members/grant", `{"email":"=cmd|' /C calc'!A0@example.com","role":"viewer","reason":"=HYPERLINK(\"x\")"}`, admin)
		code, body, h := call(t, e, "GET", "/api/v1/staff/audit.csv?itemType=member&from=2000-01-01", "", admin)
		if code != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/csv") || !strings.HasPrefix(body, "id,at,actor,action,item_type,item_id,revision,detail,client_ip\n") {
			t.Fatalf("%d %v %q", code, h, body)
		}
		if !strings.Contains(body, `'=cmd`) || strings.Contains(body, ",=cmd") {
			t.Errorf("formula not neutralised: %q", body)
		}
		if n := strings.Count(body, "\n"); n != 3 { // header, the command's grant of admin, the studio's grant
			t.Errorf("%d lines: %q", n, body)
		}
		if code, body, _ := call(t, e, "GET", "/api/v1/staff/audit?action=audit.exported", "", admin); code != 200 || !strings.Contains(body, `"audit.exported"`) {
			t.Errorf("export not recorded: %d %q", code, body)
		}
		if code, body, _ := call(t, e, "GET", "/api/v1/staff/audit?from=yesterday", "", admin); code != 400 || !strings.Contains(body, `"from"`) {
			t.Errorf("bad filter: %d %q", code, body)
		}
	})
}
