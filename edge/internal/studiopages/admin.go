package studiopages

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/audit"
	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/httpx/response"
	"omnibus/edge/internal/staff"
)

// The admin's pages: /staff/members (who is on the staff, and the changes
// an admin makes to a member) and /staff/audit (the audit log). Their data
// comes only to an admin's request; anyone else's carries none, and the
// renderer answers the site's 404 page as it does for the rest of the
// studio to those not allowed.
const (
	MembersPath = Prefix + "/members"
	AuditPath   = Prefix + "/audit"
	// FormMembers is the members page's form id in shared/routes.json:
	// every change to a member posted without JavaScript.
	FormMembers = "studio-members"
)

// AuditPageSize is how many entries one page of the log shows.
const AuditPageSize = 100

// Members is the members page's data.
type Members struct {
	Members []staff.Listed `json:"members"`
	Roles   []staff.Role   `json:"roles"`
}

// AuditPage is one page of the audit log, newest first, under a filter.
type AuditPage struct {
	// Filter is the query's filter as typed (the form shows it again and
	// the CSV link carries it).
	Filter  map[string]string `json:"filter"`
	Entries []audit.Entry     `json:"entries"`
	// Next is the "before" of the next (older) page; 0 on the last.
	Next uint64 `json:"next,omitempty"`
	// Errors names each filter that could not be read (nothing listed).
	Errors  map[string]string `json:"errors,omitempty"`
	Actions []string          `json:"actions"`
}

// auditFilters are the query parameters the log's filter form sends.
var auditFilters = []string{"actor", "action", "itemType", "itemId", "from", "to"}

// gatherAdmin fills an admin page's data; false when the path is not one.
func (o Options) gatherAdmin(r *http.Request, path string, d *Data, fail func(error) Data) bool {
	ctx := r.Context()
	switch path {
	case MembersPath:
		if !d.Admin || o.Members == nil {
			return true
		}
		ms, err := o.Members(ctx)
		if err != nil {
			*d = fail(err)
			return true
		}
		d.Members = &Members{Members: ms, Roles: staff.Roles}
	case AuditPath:
		if !d.Admin || o.Audit == nil {
			return true
		}
		q := r.URL.Query()
		p := &AuditPage{Filter: map[string]string{}, Entries: []audit.Entry{}, Actions: audit.Actions}
		for _, k := range auditFilters {
			if v := q.Get(k); v != "" {
				p.Filter[k] = v
			}
		}
		f, bad := audit.ParseFilter(q)
		if bad != nil {
			p.Errors = bad
			d.Audit = p
			return true
		}
		entries, err := o.Audit(ctx, f, AuditPageSize)
		if err != nil {
			*d = fail(err)
			return true
		}
		if entries != nil {
			p.Entries = entries
		}
		if len(entries) == AuditPageSize {
			p.Next = entries[len(entries)-1].ID
		}
		d.Audit = p
	default:
		return false
	}
	return true
}

// MembersForm takes the members page's forms posted without JavaScript.
// Each change goes to the very endpoint the page's script calls
// (o.MemberAction, staff.Service.MemberAction), behind its own guard, so
// both paths make the same checks: an admin, a studio session proved
// within the re-check window, the cross-site check, a reason, the last
// admin kept; and the same audit record. Done: 303 back to the page
// saying what was done. Refused: the page again with what was typed and
// why (a stale session's refusal starts "reauthenticate:", and the page
// offers the re-check).
func MembersForm(o Options, sameOrigin echo.MiddlewareFunc) echo.HandlerFunc {
	return sameOrigin(func(c echo.Context) error {
		r := c.Request()
		c.Response().Header().Set("Cache-Control", "no-store")
		_, ok, answered := o.Member(c.Response(), r)
		if answered {
			return nil
		}
		if !ok || o.MemberAction == nil || o.Admin == nil || !o.Admin(c.Response(), r) {
			return response.Error(c, http.StatusNotFound, "Not found")
		}
		if err := r.ParseForm(); err != nil {
			return response.Error(c, http.StatusBadRequest, "The form could not be read.")
		}
		f := r.PostForm
		action := f.Get("action")
		values := map[string]string{"action": action, "email": f.Get("email"), "role": f.Get("role"), "reason": f.Get("reason"), "allowed": f.Get("allowed")}
		st := forms.State{Form: FormMembers, Values: values}
		h := o.MemberAction(action)
		if h == nil {
			st.Error = "The form does not say what to change. Open the staff page again."
			return forms.Refuse(c, http.StatusUnprocessableEntity, st)
		}
		body := map[string]any{"email": values["email"], "reason": values["reason"]}
		if action == "grant" {
			body["role"] = values["role"]
		}
		if action == "totp" {
			body["allowed"] = values["allowed"] == "true"
		}
		b, _ := json.Marshal(body)
		req := r.Clone(r.Context())
		req.URL = &url.URL{Path: "/api/v1/staff/members/" + action}
		req.Body, req.ContentLength, req.GetBody = nopCloser{bytes.NewReader(b)}, int64(len(b)), nil
		req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
		rec := &recorder{header: http.Header{}}
		if err := h(c.Echo().NewContext(req, rec)); err != nil || rec.status == 0 {
			o.Logger.ErrorContext(r.Context(), "studio pages: a member change", "err", err, "action", action)
			st.Error = "The change was not made: the server did not answer. Please try again."
			return forms.Refuse(c, http.StatusServiceUnavailable, st)
		}
		if rec.status < 300 {
			back := url.Values{"done": {action}, "who": {values["email"]}}
			if action == "totp" {
				back.Set("done", "totp-"+map[bool]string{true: "on", false: "off"}[values["allowed"] == "true"])
			}
			return c.Redirect(http.StatusSeeOther, MembersPath+"?"+back.Encode())
		}
		var ans struct {
			ErrorDetail    string            `json:"errorDetail"`
			FieldErrors    map[string]string `json:"fieldErrors"`
			Reauthenticate bool              `json:"reauthenticate"`
		}
		json.Unmarshal(rec.body.Bytes(), &ans)
		st.Error, st.Errors = ans.ErrorDetail, ans.FieldErrors
		if st.Error == "" {
			st.Error = "The change was not made (" + http.StatusText(rec.status) + ")."
		}
		if ans.Reauthenticate {
			st.Error = "reauthenticate: " + st.Error
		}
		return forms.Refuse(c, rec.status, st)
	})
}

type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }

// recorder keeps the member endpoint's answer for MembersForm to turn
// into a page.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *recorder) Header() http.Header { return w.header }
func (w *recorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}
func (w *recorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.body.Write(b)
}
