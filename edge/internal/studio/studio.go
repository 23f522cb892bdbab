// Package studio is the JSON API staff publish through, under
// /api/v1/staff/ (docs/studio-api.md is its contract): the content store's
// items, revisions, diffs, publishing, scheduling, rollback and preview
// links. The studio's pages (ssr, /staff) are its client.
package studio

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/sergi/go-diff/diffmatchpatch"

	"omnibus/edge/internal/content"
	"omnibus/edge/internal/httpx/response"
	"omnibus/edge/internal/server"
	"omnibus/edge/internal/staff"
)

// Options configure the API.
type Options struct {
	Store *content.Store
	// Staff guards every endpoint: a studio session and a role
	// (staff.Require; RequireFresh for what goes live).
	Staff  *staff.Service
	Logger *slog.Logger
}

// MaxBody bounds a request: an article's Markdown (content.MaxBodyBytes)
// and its fields, as JSON.
const MaxBody = 512 << 10

type api struct {
	Options
}

// Register mounts the API on the /api/v1 group.
func Register(v1 *echo.Group, o Options) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	a := &api{o}
	g := v1.Group("/staff/content", noStore, server.BodyLimit(MaxBody))
	// Who may do what (internal/staff roles): viewers read, editors write
	// drafts and share previews, publishers change what is live.
	read := o.Staff.Require(staff.Viewer)
	edit := o.Staff.Require(staff.Editor)
	publish := o.Staff.RequireFresh(staff.Publisher)
	g.GET("", a.list, read)
	g.GET("/types", a.types, read)
	g.POST("", a.create, edit)
	g.POST("/render", a.render, edit)
	g.GET("/:id", a.get, read)
	g.PUT("/:id", a.save, edit)
	g.GET("/:id/revisions", a.revisions, read)
	g.GET("/:id/revisions/:rev", a.revision, read)
	g.GET("/:id/diff", a.diff, read)
	g.POST("/:id/publish", a.publish, publish)
	g.POST("/:id/schedule", a.schedule, publish)
	g.POST("/:id/unschedule", a.unschedule, publish)
	g.POST("/:id/unpublish", a.unpublish, publish)
	g.POST("/:id/rollback", a.rollback, publish)
	g.POST("/:id/previews", a.createPreview, edit)
	g.GET("/:id/previews", a.previews, edit) // links are capabilities: an editor's
	g.DELETE("/:id/previews/:preview", a.revokePreview, edit)
}

func noStore(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Robots-Tag", "noindex, nofollow")
		return next(c)
	}
}

// author is who a change is recorded as: the member's e-mail address.
func author(c echo.Context) string {
	m, _ := staff.MemberFrom(c)
	return m.Email
}

// fail answers a store error with its status.
func (a *api) fail(c echo.Context, err error) error {
	var fe content.FieldErrors
	var conflict *content.ConflictError
	switch {
	case errors.As(err, &fe):
		return c.JSON(http.StatusUnprocessableEntity, map[string]any{"errorDetail": "Some fields need another look.", "fieldErrors": fe})
	case errors.As(err, &conflict):
		return c.JSON(http.StatusConflict, map[string]any{
			"errorDetail": "Someone saved this item after you opened it. Your text is still in the editor; compare it with theirs before saving again.",
			"current":     conflict.Current,
		})
	case content.IsNotFound(err):
		return response.Error(c, http.StatusNotFound, "There is no such item.")
	case errors.Is(err, context.Canceled):
		return err
	}
	a.Logger.ErrorContext(c.Request().Context(), "studio: content store", "err", err, "path", c.Path())
	return response.Error(c, http.StatusServiceUnavailable, "The content store cannot be reached right now, so nothing was saved. Your text is still in the editor: try again in a moment.")
}

func id(c echo.Context, name string) (uint64, bool) {
	n, err := strconv.ParseUint(c.Param(name), 10, 64)
	return n, err == nil && n > 0
}

func (a *api) withID(h func(c echo.Context, id uint64) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		n, ok := id(c, "id")
		if !ok {
			return response.Error(c, http.StatusNotFound, "There is no such item.")
		}
		return h(c, n)
	}
}

// decode reads a JSON body into v: 400 for anything else.
func decode(c echo.Context, v any) error {
	if ct := c.Request().Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, "Send the request as JSON.")
	}
	if err := json.NewDecoder(c.Request().Body).Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		return echo.NewHTTPError(http.StatusBadRequest, "The request is not the JSON this endpoint takes.")
	}
	return nil
}

func data(c echo.Context, status int, v any) error { return c.JSON(status, map[string]any{"data": v}) }

func (a *api) list(c echo.Context) error {
	q := c.QueryParams()
	limit, _ := strconv.Atoi(q.Get("limit"))
	items, next, err := a.Store.List(c.Request().Context(), content.Filter{
		Type: q.Get("type"), State: q.Get("state"), Author: q.Get("author"), Query: q.Get("q"), Limit: limit, After: q.Get("after"),
	})
	if err != nil {
		return a.fail(c, err)
	}
	var cursor any
	if next != "" {
		cursor = next
	}
	return c.JSON(http.StatusOK, map[string]any{"data": items, "next": cursor})
}

func (a *api) types(c echo.Context) error {
	out := make([]content.TypeSpec, 0, len(content.Types))
	for _, t := range content.Types {
		out = append(out, content.Specs[t])
	}
	return data(c, http.StatusOK, out)
}

type draftBody struct {
	Type           string            `json:"type"`
	BaseRevisionID uint64            `json:"baseRevisionId"`
	Slug           string            `json:"slug"`
	Fields         map[string]string `json:"fields"`
	Body           string            `json:"body"`
	Note           string            `json:"note"`
}

func (b draftBody) draft() content.Draft {
	return content.Draft{Slug: b.Slug, Fields: b.Fields, Body: b.Body, Note: b.Note}
}

func (a *api) create(c echo.Context) error {
	var b draftBody
	if err := decode(c, &b); err != nil {
		return err
	}
	it, err := a.Store.Create(c.Request().Context(), b.Type, author(c), b.draft())
	if err != nil {
		return a.fail(c, err)
	}
	return data(c, http.StatusCreated, it)
}

func (a *api) get(c echo.Context) error {
	return a.withID(func(c echo.Context, id uint64) error {
		it, err := a.Store.Get(c.Request().Context(), id)
		if err != nil {
			return a.fail(c, err)
		}
		return data(c, http.StatusOK, it)
	})(c)
}

func (a *api) save(c echo.Context) error {
	return a.withID(func(c echo.Context, id uint64) error {
		var b draftBody
		if err := decode(c, &b); err != nil {
			return err
		}
		if b.BaseRevisionID == 0 {
			return c.JSON(http.StatusUnprocessableEntity, map[string]any{"errorDetail": "Say which revision this text is based on.", "fieldErrors": map[string]string{"baseRevisionId": "Required."}})
		}
		it, err := a.Store.Save(c.Request().Context(), id, b.BaseRevisionID, author(c), b.draft())
		if err != nil {
			return a.fail(c, err)
		}
		return data(c, http.StatusOK, it)
	})(c)
}

func (a *api) revisions(c echo.Context) error {
	return a.withID(func(c echo.Context, id uint64) error {
		revs, err := a.Store.Revisions(c.Request().Context(), id)
		if err != nil {
			return a.fail(c, err)
		}
		return data(c, http.StatusOK, revs)
	})(c)
}

func (a *api) revision(c echo.Context) error {
	return a.withID(func(c echo.Context, id uint64) error {
		rev, ok := idParam(c, "rev")
		if !ok {
			return response.Error(c, http.StatusNotFound, "There is no such revision.")
		}
		r, err := a.Store.Revision(c.Request().Context(), id, rev)
		if err != nil {
			return a.fail(c, err)
		}
		return data(c, http.StatusOK, r)
	})(c)
}

func idParam(c echo.Context, name string) (uint64, bool) { return id(c, name) }

func queryID(c echo.Context, name string) (uint64, bool) {
	n, err := strconv.ParseUint(c.QueryParam(name), 10, 64)
	return n, err == nil && n > 0
}

// Diff is two revisions' differences: the fields that differ, and the body
// line by line.
type Diff struct {
	From   uint64      `json:"from"`
	To     uint64      `json:"to"`
	Slug   *FieldDiff  `json:"slug"`
	Fields []FieldDiff `json:"fields"`
	Body   []Part      `json:"body"`
}

// FieldDiff is one field's two values.
type FieldDiff struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
}

// Part is a run of the body's diff: equal, insert or delete.
type Part struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

// BodyDiff diffs two texts line by line (github.com/sergi/go-diff).
func BodyDiff(from, to string) []Part {
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToChars(from, to)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines)
	out := make([]Part, 0, len(diffs))
	for _, d := range diffs {
		op := "equal"
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op = "insert"
		case diffmatchpatch.DiffDelete:
			op = "delete"
		}
		out = append(out, Part{Op: op, Text: d.Text})
	}
	return out
}

func (a *api) diff(c echo.Context) error {
	return a.withID(func(c echo.Context, id uint64) error {
		from, ok1 := queryID(c, "from")
		to, ok2 := queryID(c, "to")
		if !ok1 || !ok2 {
			return response.Error(c, http.StatusBadRequest, "Name two revisions: ?from=<id>&to=<id>.")
		}
		ctx := c.Request().Context()
		rf, err := a.Store.Revision(ctx, id, from)
		if err != nil {
			return a.fail(c, err)
		}
		rt, err := a.Store.Revision(ctx, id, to)
		if err != nil {
			return a.fail(c, err)
		}
		d := Diff{From: from, To: to, Fields: []FieldDiff{}, Body: BodyDiff(rf.Body, rt.Body)}
		if rf.Slug != rt.Slug {
			d.Slug = &FieldDiff{Name: "slug", From: rf.Slug, To: rt.Slug}
		}
		names := map[string]bool{}
		for k := range rf.Fields {
			names[k] = true
		}
		for k := range rt.Fields {
			names[k] = true
		}
		for _, spec := range content.Specs[typeOf(rf, rt)].Fields {
			if names[spec.Name] && rf.Fields[spec.Name] != rt.Fields[spec.Name] {
				d.Fields = append(d.Fields, FieldDiff{Name: spec.Name, From: rf.Fields[spec.Name], To: rt.Fields[spec.Name]})
			}
		}
		return data(c, http.StatusOK, d)
	})(c)
}

// typeOf finds the type whose fields the revisions have (a revision does
// not carry its item's type).
func typeOf(revs ...content.Revision) string {
	best, score := content.TypeBlog, -1
	for _, t := range content.Types {
		n := 0
		for _, f := range content.Specs[t].Fields {
			for _, r := range revs {
				if _, ok := r.Fields[f.Name]; ok {
					n++
				}
			}
		}
		if n > score {
			best, score = t, n
		}
	}
	return best
}

type revisionBody struct {
	RevisionID     uint64 `json:"revisionId"`
	BaseRevisionID uint64 `json:"baseRevisionId"`
	At             string `json:"at"`
	Days           int    `json:"days"`
}

func (a *api) publish(c echo.Context) error {
	return a.withID(func(c echo.Context, id uint64) error {
		var b revisionBody
		if err := decode(c, &b); err != nil {
			return err
		}
		it, err := a.Store.Publish(c.Request().Context(), id, b.RevisionID, author(c))
		if err != nil {
			return a.fail(c, err)
		}
		return data(c, http.StatusOK, it)
	})(c)
}

func (a *api) schedule(c echo.Context) error {
	return a.withID(func(c echo.Context, id uint64) error {
		var b revisionBody
		if err := decode(c, &b); err != nil {
			return err
		}
		at, err := time.Parse(time.RFC3339, b.At)
		if err != nil {
			return a.fail(c, content.FieldErrors{"at": "Give a date and time (RFC 3339, with its time zone)."})
		}
		it, err := a.Store.Schedule(c.Request().Context(), id, b.RevisionID, at)
		if err != nil {
			return a.fail(c, err)
		}
		return data(c, http.StatusOK, it)
	})(c)
}

func (a *api) unschedule(c echo.Context) error {
	return a.withID(func(c echo.Context, id uint64) error {
		it, err := a.Store.Unschedule(c.Request().Context(), id)
		if err != nil {
			return a.fail(c, err)
		}
		return data(c, http.StatusOK, it)
	})(c)
}

func (a *api) unpublish(c echo.Context) error {
	return a.withID(func(c echo.Context, id uint64) error {
		it, err := a.Store.Unpublish(c.Request().Context(), id)
		if err != nil {
			return a.fail(c, err)
		}
		return data(c, http.StatusOK, it)
	})(c)
}

func (a *api) rollback(c echo.Context) error {
	return a.withID(func(c echo.Context, id uint64) error {
		var b revisionBody
		if err := decode(c, &b); err != nil {
			return err
		}
		it, err := a.Store.Rollback(c.Request().Context(), id, b.RevisionID, b.BaseRevisionID, author(c))
		if err != nil {
			return a.fail(c, err)
		}
		return data(c, http.StatusOK, it)
	})(c)
}

func (a *api) createPreview(c echo.Context) error {
	return a.withID(func(c echo.Context, id uint64) error {
		var b revisionBody
		if c.Request().ContentLength != 0 {
			if err := decode(c, &b); err != nil {
				return err
			}
		}
		p, err := a.Store.CreatePreview(c.Request().Context(), id, author(c), b.Days)
		if err != nil {
			return a.fail(c, err)
		}
		return data(c, http.StatusCreated, p)
	})(c)
}

func (a *api) previews(c echo.Context) error {
	return a.withID(func(c echo.Context, id uint64) error {
		ps, err := a.Store.Previews(c.Request().Context(), id)
		if err != nil {
			return a.fail(c, err)
		}
		return data(c, http.StatusOK, ps)
	})(c)
}

func (a *api) revokePreview(c echo.Context) error {
	return a.withID(func(c echo.Context, id uint64) error {
		pid, ok := idParam(c, "preview")
		if !ok {
			return response.Error(c, http.StatusNotFound, "There is no such preview link.")
		}
		p, err := a.Store.RevokePreview(c.Request().Context(), id, pid)
		if err != nil {
			return a.fail(c, err)
		}
		return data(c, http.StatusOK, p)
	})(c)
}

func (a *api) render(c echo.Context) error {
	var b draftBody
	if err := decode(c, &b); err != nil {
		return err
	}
	if len(b.Body) > content.MaxBodyBytes {
		return a.fail(c, content.FieldErrors{"body": "The text is too long."})
	}
	html, err := content.Render(b.Body)
	if err != nil {
		return a.fail(c, err)
	}
	return data(c, http.StatusOK, map[string]string{"html": html})
}
