package studiopages_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/audit"
	"omnibus/edge/internal/content"
	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
	"omnibus/edge/internal/studiopages"
	"omnibus/shared"
)

// renderer records what a page request reached the renderer with.
type renderer struct{ got *http.Request }

func (r *renderer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.got = req
	w.Write([]byte("<!DOCTYPE html><title>page</title>"))
}

func (r *renderer) data(t *testing.T) *studiopages.Data {
	t.Helper()
	raw := r.got.Header.Get(shared.HTTP.StudioHeader)
	if raw == "" {
		return nil
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		t.Fatal(err)
	}
	var d studiopages.Data
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return &d
}

func setup(t *testing.T, db *storage.DB) (*content.Store, studiopages.Options) {
	s := content.New(db, content.Options{})
	if err := s.Seed(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s, studiopages.Options{Store: s,
		Member: func(_ http.ResponseWriter, r *http.Request) (string, bool, bool) {
			return "ana@example.com", r.Header.Get("X-Test-Staff") == "yes", false
		},
		Views: func(context.Context) (map[string]int64, error) {
			return map[string]int64{"/blog/article/festive-season-checklist": 1234}, nil
		}}
}

func get(h http.Handler, target string, staff bool) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	if staff {
		r.Header.Set("X-Test-Staff", "yes")
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// A staff member's studio page arrives with its data: the list with each
// article's views, the item with its revisions and a diff; anyone else's
// request carries nothing (the renderer then answers 404), and no studio
// page may be kept by a cache. Other pages are untouched.
func TestStudioPagesGetTheirDataOnThePageRequest(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		store, o := setup(t, db)
		rend := &renderer{}
		h := studiopages.Wrap(o, rend)

		w := get(h, "/staff?type=blog", false)
		if d := rend.data(t); d != nil || w.Header().Get("Cache-Control") != "no-store" {
			t.Fatalf("not staff: data %+v, Cache-Control %q", d, w.Header().Get("Cache-Control"))
		}

		get(h, "/staff?type=blog", true)
		d := rend.data(t)
		if d == nil || d.List == nil || d.Member != "ana@example.com" || len(d.Types) == 0 {
			t.Fatalf("list: %+v", d)
		}
		var festive *content.Item
		for i, it := range d.List.Items {
			if it.Type != "blog" {
				t.Errorf("filtered by blog, got a %s", it.Type)
			}
			if it.Slug == "festive-season-checklist" {
				festive = &d.List.Items[i]
			}
		}
		if festive == nil || d.List.Views[festive.Path] != 1234 {
			t.Fatalf("the article's views are not beside it: %+v", d.List.Views)
		}

		// Two revisions, then the item page with a diff between them.
		it, err := store.Get(context.Background(), festive.ID)
		if err != nil {
			t.Fatal(err)
		}
		d2 := content.Draft{Slug: it.Slug, Fields: it.Revision.Fields, Body: it.Revision.Body + "\n\nA new closing line.\n"}
		saved, err := store.Save(context.Background(), it.ID, it.Revision.ID, "ana@example.com", d2)
		if err != nil {
			t.Fatal(err)
		}
		get(h, "/staff/item?id="+itoa(it.ID)+"&compare="+itoa(it.Revision.ID), true)
		d = rend.data(t)
		if d == nil || d.Item == nil || d.Item.Revision.ID != saved.Revision.ID || len(d.Revisions) != 2 || d.Views == nil || *d.Views != 1234 {
			t.Fatalf("item: %+v", d)
		}
		if d.Diff == nil || !strings.Contains(joinInserts(d.Diff), "A new closing line.") {
			t.Fatalf("diff: %+v", d.Diff)
		}

		rend.got = nil
		get(h, "/features", true)
		if rend.got.Header.Get(shared.HTTP.StudioHeader) != "" {
			t.Error("a public page got the studio header")
		}
	})
}

func joinInserts(d *studiopages.Diff) string {
	var b strings.Builder
	for _, p := range d.Body {
		if p.Op == "insert" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

func itoa(n uint64) string { b, _ := json.Marshal(n); return string(b) }

// Without JavaScript the editor is a plain form: Save stores a new revision
// (never publishes) and goes back to the editor; a stale one is refused
// with 409 and the page is drawn again with everything typed; a refused
// field is named, the text kept.
func TestEditorFormWithoutJavaScript(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		store, o := setup(t, db)
		items, _, err := store.List(context.Background(), content.Filter{Type: "blog"})
		if err != nil || len(items) == 0 {
			t.Fatal(items, err)
		}
		it, _ := store.Get(context.Background(), items[0].ID)
		rend := &renderer{}
		e := echo.New()
		fp := forms.New(shared.Routes, func(next echo.HandlerFunc) echo.HandlerFunc { return next }, rend)
		save := studiopages.SaveForm(o, func(next echo.HandlerFunc) echo.HandlerFunc { return next })
		fp.Handle(studiopages.FormItem, save)
		fp.Handle(studiopages.FormNew, save)
		e.RouteNotFound("/*", fp.Middleware(func(c echo.Context) error { return c.NoContent(http.StatusMethodNotAllowed) }))
		post := func(base uint64, body, title string) *httptest.ResponseRecorder {
			v := url.Values{"baseRevisionId": {itoa(base)}, "slug": {it.Slug}, "body": {body}, "action": {"preview"}}
			for k, f := range it.Revision.Fields {
				v.Set(k, f)
			}
			v.Set("title", title)
			r := httptest.NewRequest(http.MethodPost, "/staff/item?id="+itoa(it.ID), strings.NewReader(v.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.Header.Set("X-Test-Staff", "yes")
			w := httptest.NewRecorder()
			e.ServeHTTP(w, r)
			return w
		}
		w := post(it.Revision.ID, "Saved without JavaScript.", "A title")
		if w.Code != http.StatusSeeOther || !strings.Contains(w.Header().Get("Location"), "saved=preview") {
			t.Fatalf("save: %d %v %s", w.Code, w.Header(), w.Body)
		}
		now, _ := store.Get(context.Background(), it.ID)
		if strings.TrimSpace(now.Revision.Body) != "Saved without JavaScript." || now.Revision.Author != "ana@example.com" || now.Changed != true {
			t.Fatalf("after save: %+v", now.Revision)
		}
		if now.PublishedRevisionID == nil || *now.PublishedRevisionID == now.Revision.ID {
			t.Error("saving published the draft")
		}

		w = post(it.Revision.ID, "My stale text.", "A title") // based on the old revision
		if w.Code != http.StatusConflict {
			t.Fatalf("stale save: %d", w.Code)
		}
		st := formState(t, rend.got)
		if st.Values["body"] != "My stale text." || !strings.HasPrefix(st.Error, "conflict:") {
			t.Fatalf("stale save's page: %+v", st)
		}

		w = post(now.Revision.ID, "Kept text.", "  ")
		st = formState(t, rend.got)
		if w.Code != http.StatusUnprocessableEntity || st.Errors["title"] == "" || st.Values["body"] != "Kept text." {
			t.Fatalf("empty title: %d %+v", w.Code, st)
		}
	})
}

func formState(t *testing.T, r *http.Request) forms.State {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(r.Header.Get(forms.Header))
	if err != nil {
		t.Fatal(err)
	}
	var st forms.State
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// adminSetup is a studio whose members and audit log are real (internal/
// staff on the same database): who sees what is decided by the request's
// studio session, as in the app.
func adminSetup(t *testing.T, db *storage.DB) (*staff.Service, studiopages.Options) {
	_, o := setup(t, db)
	svc := staff.New(db, staff.Options{PublicURL: "http://localhost:8080"})
	o.Member = func(_ http.ResponseWriter, r *http.Request) (string, bool, bool) {
		return "member@example.com", svc.RoleOf(r) >= staff.Viewer, false
	}
	o.Admin = func(_ http.ResponseWriter, r *http.Request) bool { return svc.RoleOf(r) >= staff.Admin }
	o.Members, o.Audit, o.MemberAction = svc.Members.List, svc.Audit.List, svc.MemberAction
	return svc, o
}

func getAs(h http.Handler, target string, cookie *http.Cookie) {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	r.AddCookie(cookie)
	h.ServeHTTP(httptest.NewRecorder(), r)
}

// An admin's staff page lists every member with their role and who granted
// it, and the audit page lists the log under the filter typed (a malformed
// date is named, not ignored); an editor or a viewer opening the same
// addresses gets no member and no entry, so the renderer answers them the
// site's 404 page.
func TestOnlyAnAdminGetsTheStaffAndAuditPagesData(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		_, o := adminSetup(t, db)
		admin := stafftest.SignIn(t, db, "ada@example.com", staff.Admin)
		editor := stafftest.SignIn(t, db, "ed@example.com", staff.Editor)
		viewer := stafftest.SignIn(t, db, "vi@example.com", staff.Viewer)
		rend := &renderer{}
		h := studiopages.Wrap(o, rend)

		getAs(h, "/staff/members", admin)
		d := rend.data(t)
		if d == nil || !d.Admin || d.Members == nil || len(d.Members.Members) != 3 {
			t.Fatalf("admin's staff page: %+v", d)
		}
		if m := d.Members.Members[1]; m.Email != "ed@example.com" || m.Role != staff.Editor || m.GrantedBy != "edge staff command" {
			t.Errorf("the editor's row: %+v", m)
		}

		getAs(h, "/staff/audit?action=role.granted&actor=EDGE+STAFF+COMMAND&itemType=member&from=2000-01-01", admin)
		d = rend.data(t)
		if d == nil || d.Audit == nil || len(d.Audit.Entries) != 3 || d.Audit.Filter["action"] != "role.granted" || d.Audit.Filter["from"] != "2000-01-01" {
			t.Fatalf("admin's audit page: %+v", d)
		}
		for _, e := range d.Audit.Entries {
			if e.Action != "role.granted" {
				t.Errorf("filtered by role.granted, got %+v", e)
			}
		}
		if d.Audit.Entries[0].ItemID != "vi@example.com" {
			t.Errorf("not newest first: %+v", d.Audit.Entries)
		}
		getAs(h, "/staff/audit?to=2099-01-01&from=2099-01-02", admin)
		if d = rend.data(t); d.Audit == nil || len(d.Audit.Entries) != 0 {
			t.Errorf("a range with nothing in it: %+v", d.Audit)
		}
		getAs(h, "/staff/audit?from=yesterday", admin)
		if d = rend.data(t); d.Audit == nil || d.Audit.Errors["from"] == "" {
			t.Errorf("a malformed date is not named: %+v", d.Audit)
		}

		for name, c := range map[string]*http.Cookie{"editor": editor, "viewer": viewer} {
			for _, path := range []string{"/staff/members", "/staff/audit", "/staff"} {
				getAs(h, path, c)
				d := rend.data(t)
				if d == nil || d.Admin || d.Members != nil || d.Audit != nil {
					t.Errorf("%s on %s: %+v", name, path, d)
				}
			}
		}
	})
}

// Without JavaScript an admin grants a role from the staff page with a
// plain form: the grant is made and recorded with its reason, and the
// page says so. With a session whose passkey check is older than the
// re-check window the same post changes nothing and the page is drawn
// again saying to confirm with the passkey, with the reason kept; a post
// with no reason is refused by name.
func TestStaffPageFormWithoutJavaScript(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		svc, o := adminSetup(t, db)
		admin := stafftest.SignIn(t, db, "ada@example.com", staff.Admin)
		stale := stafftest.Session(t, db, stafftest.Account(t, db, "ada@example.com"), time.Now().UTC().Add(-time.Hour), 8*time.Hour)
		stafftest.Account(t, db, "new@example.com")
		rend := &renderer{}
		e := echo.New()
		pass := func(next echo.HandlerFunc) echo.HandlerFunc { return next }
		fp := forms.New(shared.Routes, pass, rend)
		fp.Handle(studiopages.FormMembers, studiopages.MembersForm(o, pass))
		e.RouteNotFound("/*", fp.Middleware(func(c echo.Context) error { return c.NoContent(http.StatusMethodNotAllowed) }))
		post := func(c *http.Cookie, v url.Values) *httptest.ResponseRecorder {
			r := httptest.NewRequest(http.MethodPost, "/staff/members", strings.NewReader(v.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.Header.Set("Origin", "http://localhost:8080")
			r.AddCookie(c)
			w := httptest.NewRecorder()
			e.ServeHTTP(w, r)
			return w
		}
		grant := url.Values{"action": {"grant"}, "email": {"new@example.com"}, "role": {"viewer"}, "reason": {"joins the support team"}}

		w := post(stale, grant)
		st := formState(t, rend.got)
		if w.Code != http.StatusUnauthorized || !strings.HasPrefix(st.Error, "reauthenticate:") || st.Values["reason"] != "joins the support team" {
			t.Fatalf("stale session: %d %+v", w.Code, st)
		}
		if m, _ := svc.Members.Lookup(context.Background(), stafftest.Account(t, db, "new@example.com")); m.Role != staff.None {
			t.Fatalf("a stale session granted %s", m.Role)
		}

		noReason := url.Values{"action": {"grant"}, "email": {"new@example.com"}, "role": {"viewer"}, "reason": {" "}}
		if w = post(admin, noReason); w.Code != http.StatusBadRequest || formState(t, rend.got).Errors["reason"] == "" {
			t.Fatalf("no reason: %d", w.Code)
		}

		w = post(admin, grant)
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/staff/members?done=grant&who=new%40example.com" {
			t.Fatalf("grant: %d %v", w.Code, w.Header())
		}
		got, err := svc.Audit.List(context.Background(), audit.Filter{Action: audit.RoleGranted, ItemID: "new@example.com"}, 10)
		if err != nil || len(got) != 1 || got[0].Actor != "ada@example.com" || !strings.Contains(got[0].Detail, "joins the support team") {
			t.Fatalf("the grant's record: %v %+v", err, got)
		}
	})
}
