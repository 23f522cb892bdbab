package studiopages

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/content"
	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/httpx/response"
)

// Form ids of shared/routes.json: the editor posted without JavaScript
// (/staff/item?id=ID saves a new revision, /staff/new creates a draft).
const (
	FormItem = "studio-item"
	FormNew  = "studio-new"
)

// Form fields besides the item's own (content.Specs): what the post is.
const (
	fieldBase   = "baseRevisionId"
	fieldSlug   = "slug"
	fieldBody   = "body"
	fieldNote   = "note"
	fieldType   = "type"
	fieldAction = "action" // "save" or "preview"
)

// SaveForm is the handler of both forms: without JavaScript the editor is a
// plain form with Save and Preview buttons. Both save a new revision (saving
// never publishes) and answer 303 back to the editor, Preview opening the
// draft drawn as it will be published. A refusal (a field, a stale base
// revision, the database down) renders the editor again with everything
// typed and each field's message (forms.Refuse); a 409 also shows the
// current text beside it.
//
// o.Member decides who may save (the app gives it the editor role).
func SaveForm(o Options, sameOrigin echo.MiddlewareFunc) echo.HandlerFunc {
	return sameOrigin(func(c echo.Context) error {
		r := c.Request()
		c.Response().Header().Set("Cache-Control", "no-store")
		email, ok, answered := o.Member(c.Response(), r)
		if answered {
			return nil
		}
		if !ok {
			return response.Error(c, http.StatusNotFound, "Not found")
		}
		if err := r.ParseForm(); err != nil {
			return response.Error(c, http.StatusBadRequest, "The form could not be read.")
		}
		f := r.PostForm
		form := FormItem
		if r.URL.Path == Prefix+"/new" {
			form = FormNew
		}
		typ := f.Get(fieldType)
		d := content.Draft{Slug: f.Get(fieldSlug), Body: f.Get(fieldBody), Note: f.Get(fieldNote), Fields: map[string]string{}}
		values := map[string]string{fieldType: typ, fieldSlug: d.Slug, fieldBody: d.Body, fieldNote: d.Note, fieldBase: f.Get(fieldBase)}
		var it content.Item
		var err error
		if form == FormNew {
			fillFields(d.Fields, values, typ, f)
			it, err = o.Store.Create(r.Context(), typ, email, d)
		} else {
			id, perr := strconv.ParseUint(r.URL.Query().Get("id"), 10, 64)
			base, berr := strconv.ParseUint(f.Get(fieldBase), 10, 64)
			if perr != nil || berr != nil {
				return forms.Refuse(c, http.StatusUnprocessableEntity, forms.State{Form: form, Values: values, Error: "The form does not say which item and revision it edits. Open the item again from the studio."})
			}
			cur, gerr := o.Store.Get(r.Context(), id)
			if gerr != nil {
				err = gerr
			} else {
				values[fieldType] = cur.Type
				fillFields(d.Fields, values, cur.Type, f)
				it, err = o.Store.Save(r.Context(), id, base, email, d)
			}
		}
		if err != nil {
			return refuse(c, o, form, values, err)
		}
		back := url.Values{"id": {strconv.FormatUint(it.ID, 10)}, "saved": {"1"}}
		if f.Get(fieldAction) == "preview" {
			back.Set("saved", "preview")
		}
		return c.Redirect(http.StatusSeeOther, Prefix+"/item?"+back.Encode())
	})
}

// fillFields copies the type's fields from the form.
func fillFields(dst, values map[string]string, typ string, f url.Values) {
	spec, ok := content.Specs[typ]
	if !ok {
		return
	}
	for _, fs := range spec.Fields {
		if v, ok := f[fs.Name]; ok {
			dst[fs.Name] = v[0]
			values[fs.Name] = v[0]
		}
	}
}

// refuse renders the editor again with what was typed and why it was not
// taken; nothing typed is lost.
func refuse(c echo.Context, o Options, form string, values map[string]string, err error) error {
	var fe content.FieldErrors
	var conflict *content.ConflictError
	st := forms.State{Form: form, Values: values}
	switch {
	case errors.As(err, &fe):
		st.Errors = map[string]string(fe)
		st.Error = "Some fields need another look. Nothing was saved."
		return forms.Refuse(c, http.StatusUnprocessableEntity, st)
	case errors.As(err, &conflict):
		st.Error = "conflict: Someone saved this item after you opened it. Your text is below, theirs beside it; nothing was saved."
		return forms.Refuse(c, http.StatusConflict, st)
	case content.IsNotFound(err):
		return response.Error(c, http.StatusNotFound, "There is no such item.")
	}
	o.Logger.ErrorContext(c.Request().Context(), "studio pages: saving a form", "err", err)
	st.Error = "The content store cannot be reached right now, so nothing was saved. Your text is below: try again in a moment."
	return forms.Refuse(c, http.StatusServiceUnavailable, st)
}
