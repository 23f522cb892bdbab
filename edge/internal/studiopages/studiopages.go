// Package studiopages hands the studio's pages (/staff, the renderer's
// routes of the _studio group) their data: the renderer never calls the
// edge, so the list, the item being edited, its revisions, a diff, its
// preview links and each article's view count come with the page request,
// in the studio header of shared/http.json (base64url JSON). Only a staff
// member's request gets it; without it the renderer answers the site's 404
// page, so the studio's existence is not revealed. The browser then saves
// through /api/v1/staff/... (internal/studio).
package studiopages

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/audit"
	"omnibus/edge/internal/content"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/studio"
	"omnibus/shared"
)

// Prefix is the studio's pages.
const Prefix = "/staff"

// MaxHeaderBytes bounds the header's value; the renderer's server takes
// request heads up to a megabyte (ssr/server.js). An item past it (a body
// near the store's limit, with its HTML) is sent without its HTML.
const MaxHeaderBytes = 900 << 10

// Options configure Wrap.
type Options struct {
	Store *content.Store
	// Member is the request's studio member's address (internal/staff:
	// a studio session and a role); ok false for anyone else. answered: it
	// sent the request elsewhere itself (a staff member without a studio
	// session goes to the studio's sign-in).
	Member func(w http.ResponseWriter, r *http.Request) (email string, ok, answered bool)
	// Admin reports whether the request's member is an admin: only an
	// admin's request gets the members page's and the audit log's data
	// (nil: nobody's).
	Admin func(w http.ResponseWriter, r *http.Request) bool
	// Members is every staff member (staff.Directory.List).
	Members func(ctx context.Context) ([]staff.Listed, error)
	// Audit is up to limit entries of the audit log under a filter, newest
	// first (audit.Log.List).
	Audit func(ctx context.Context, f audit.Filter, limit int) ([]audit.Entry, error)
	// MemberAction is the guarded endpoint of an admin's change to a
	// member, by name (staff.Service.MemberAction): the members page's
	// forms posted without JavaScript go through it.
	MemberAction func(name string) echo.HandlerFunc
	// Views is each page's views over the last 30 days (analytics), by path.
	Views  func(ctx context.Context) (map[string]int64, error)
	Logger *slog.Logger
}

// Data is the header's JSON.
type Data struct {
	Member    string             `json:"member"`
	Types     []content.TypeSpec `json:"types"`
	List      *List              `json:"list,omitempty"`
	Item      *content.Item      `json:"item,omitempty"`
	Revisions []content.Revision `json:"revisions,omitempty"`
	Previews  []content.Preview  `json:"previews,omitempty"`
	Diff      *Diff              `json:"diff,omitempty"`
	// Views of the item's page (the editor) over the last 30 days.
	Views *int64 `json:"views,omitempty"`
	// Admin: the member is an admin (the studio shows the staff and audit
	// pages' links).
	Admin bool `json:"admin,omitempty"`
	// Members is /staff/members' data, Audit /staff/audit's: an admin's only.
	Members *Members   `json:"members,omitempty"`
	Audit   *AuditPage `json:"audit,omitempty"`
	// Error names what could not be read (the database is down): the page
	// says so instead of showing an empty studio.
	Error string `json:"error,omitempty"`
}

// List is the studio's index: items by the query's filter, with each
// one's views.
type List struct {
	Filter content.Filter    `json:"filter"`
	Items  []content.Item    `json:"items"`
	Next   string            `json:"next,omitempty"`
	Views  map[string]int64  `json:"views"`
	Notice map[string]string `json:"notice,omitempty"`
}

// Diff is two revisions compared.
type Diff struct {
	From   content.Revision `json:"from"`
	To     content.Revision `json:"to"`
	Fields []FieldChange    `json:"fields"`
	Body   []studio.Part    `json:"body"`
}

// FieldChange is one field that differs.
type FieldChange struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
}

// Wrap sets the studio header on a staff member's request for a studio page.
func Wrap(o Options, next http.Handler) http.Handler {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	header := shared.HTTP.StudioHeader
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := strings.TrimSuffix(r.URL.Path, ".data")
		if path != Prefix && !strings.HasPrefix(path, Prefix+"/") || strings.HasPrefix(path, "/staff/insights") {
			next.ServeHTTP(w, r)
			return
		}
		// A studio page is one member's, never stored by any cache.
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Robots-Tag", "noindex, nofollow")
		email, ok, answered := o.Member(w, r)
		if answered {
			return
		}
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		d := o.gather(r, path, email)
		b, err := json.Marshal(d)
		if err == nil && len(b)*4/3 > MaxHeaderBytes && d.Item != nil && d.Item.Revision != nil {
			d.Item.Revision.HTML = "" // the editor draws the preview itself
			b, err = json.Marshal(d)
		}
		if err != nil || len(b)*4/3 > MaxHeaderBytes {
			b, _ = json.Marshal(Data{Member: email, Types: d.Types, Error: "This item is too large to open in the studio."})
		}
		r.Header[header] = []string{base64.RawURLEncoding.EncodeToString(b)}
		next.ServeHTTP(w, r)
	})
}

// gather reads what the page shows: /staff the list, /staff/item?id=ID the
// item (with &compare=REV&with=REV a diff), /staff/new nothing more;
// /staff/members and /staff/audit their data for an admin (admin.go). (The
// item is a query, not a path parameter: a route with a parameter is
// checked against the published pages by the page cache.)
func (o Options) gather(r *http.Request, path, email string) Data {
	ctx := r.Context()
	d := Data{Member: email, Admin: o.Admin != nil && o.Admin(nil, r)}
	for _, t := range content.Types {
		d.Types = append(d.Types, content.Specs[t])
	}
	q := r.URL.Query()
	fail := func(err error) Data {
		o.Logger.ErrorContext(ctx, "studio pages: reading the store", "err", err, "path", path)
		d.Error = "The content store cannot be reached right now. Nothing you see here is current; try again in a moment."
		return d
	}
	if o.gatherAdmin(r, path, &d, fail) {
		return d
	}
	switch {
	case path == Prefix:
		f := content.Filter{Type: q.Get("type"), State: q.Get("state"), Author: q.Get("author"), Query: q.Get("q"), After: q.Get("after"), Limit: 100}
		items, next, err := o.Store.List(ctx, f)
		if err != nil {
			return fail(err)
		}
		views := map[string]int64{}
		if o.Views != nil {
			all, err := o.Views(ctx)
			if err != nil {
				o.Logger.WarnContext(ctx, "studio pages: views", "err", err)
			}
			for _, it := range items {
				if n, ok := all[it.Path]; ok {
					views[it.Path] = n
				}
			}
		}
		d.List = &List{Filter: f, Items: items, Next: next, Views: views}
	case path == Prefix+"/item":
		id, err := strconv.ParseUint(q.Get("id"), 10, 64)
		if err != nil {
			return d // no such item: the page says so
		}
		it, err := o.Store.Get(ctx, id)
		if content.IsNotFound(err) {
			return d
		}
		if err != nil {
			return fail(err)
		}
		d.Item = &it
		if d.Revisions, err = o.Store.Revisions(ctx, id); err != nil {
			return fail(err)
		}
		if d.Previews, err = o.Store.Previews(ctx, id); err != nil {
			return fail(err)
		}
		if o.Views != nil && it.Path != "" {
			if all, err := o.Views(ctx); err == nil {
				n := all[it.Path]
				d.Views = &n
			}
		}
		if from, ok := revID(q.Get("compare")); ok && it.Revision != nil {
			to := it.Revision.ID
			if t, ok := revID(q.Get("with")); ok {
				to = t
			}
			if diff, err := o.diff(ctx, id, from, to); err == nil {
				d.Diff = diff
			} else if !content.IsNotFound(err) {
				return fail(err)
			}
		}
	}
	return d
}

func revID(s string) (uint64, bool) {
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil && n > 0
}

func (o Options) diff(ctx context.Context, id, from, to uint64) (*Diff, error) {
	a, err := o.Store.Revision(ctx, id, from)
	if err != nil {
		return nil, err
	}
	b, err := o.Store.Revision(ctx, id, to)
	if err != nil {
		return nil, err
	}
	d := &Diff{From: a, To: b, Body: studio.BodyDiff(a.Body, b.Body)}
	if a.Slug != b.Slug {
		d.Fields = append(d.Fields, FieldChange{"slug", a.Slug, b.Slug})
	}
	seen := map[string]bool{}
	for _, m := range []map[string]string{a.Fields, b.Fields} {
		for k := range m {
			if !seen[k] && a.Fields[k] != b.Fields[k] {
				d.Fields = append(d.Fields, FieldChange{k, a.Fields[k], b.Fields[k]})
			}
			seen[k] = true
		}
	}
	sort.Slice(d.Fields, func(i, j int) bool { return d.Fields[i].Name < d.Fields[j].Name })
	a.HTML, b.HTML = "", ""
	d.From, d.To = a, b
	return d, nil
}
