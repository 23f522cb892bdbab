package images

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/httpx/response"
	"omnibus/edge/internal/server"
)

// Access admits a studio member (staff.Require) and names their account.
type Access struct {
	// Guard admits to uploads and deletions (an editor).
	Guard echo.MiddlewareFunc
	// Read admits to the listing (a viewer: docs/staff-api.md); nil is Guard.
	Read    echo.MiddlewareFunc
	Account func(c echo.Context) (uint64, bool)
}

// Routes is where the handlers go.
type Routes interface {
	GET(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route
}

// Register adds the studio's endpoints to the API group and the images'
// own addresses to the server's routes:
//
//	POST   /api/v1/staff/images       multipart: file, alt (201 {"data": Image, "markdown"})
//	GET    /api/v1/staff/images       the member's images and storage used
//	DELETE /api/v1/staff/images/{id}  one of the member's own images
//	GET    /media/images/{id}/{width}.{webp|jpg|png}
//
// sameOrigin refuses a state-changing request from another site.
func (s *Store) Register(api *echo.Group, routes Routes, access Access, sameOrigin echo.MiddlewareFunc) {
	read := access.Read
	if read == nil {
		read = access.Guard
	}
	member := func(guard echo.MiddlewareFunc, next echo.HandlerFunc) echo.HandlerFunc {
		return guard(func(c echo.Context) error {
			c.Response().Header().Set("Cache-Control", "no-store")
			id, ok := access.Account(c)
			if !ok {
				return response.Error(c, http.StatusUnauthorized, "Sign in to the studio first.")
			}
			c.Set(accountKey, id)
			return next(c)
		})
	}
	staff := func(next echo.HandlerFunc) echo.HandlerFunc { return member(access.Guard, next) }
	viewer := func(next echo.HandlerFunc) echo.HandlerFunc { return member(read, next) }
	// The multipart envelope and the alt text on top of the file.
	limit := server.BodyLimit(s.opts.MaxUploadBytes + 64<<10)
	api.POST("/staff/images", s.upload, limit, sameOrigin, staff)
	api.GET("/staff/images", s.list, viewer)
	api.DELETE("/staff/images/:id", s.remove, sameOrigin, staff)
	routes.GET(PathPrefix+":id/:file", s.serve)
}

const accountKey = "images.account"

// uploadJSON is the answer to an upload.
type uploadJSON struct {
	*Image
	Markdown string `json:"markdown"`
}

func (s *Store) upload(c echo.Context) error {
	r := c.Request()
	mt, params, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	if mt != "multipart/form-data" || params["boundary"] == "" {
		return response.Error(c, http.StatusUnsupportedMediaType, "Send the image as multipart/form-data with the fields file and alt.")
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	var data []byte
	var alt, back string
	seenFile := false
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return s.answerErr(c, back, err)
		}
		switch p.FormName() {
		case "file":
			seenFile = true
			data, err = io.ReadAll(io.LimitReader(p, s.opts.MaxUploadBytes+1))
		case "alt":
			var b []byte
			b, err = io.ReadAll(io.LimitReader(p, 4<<10))
			alt = string(b)
		case "return":
			var b []byte
			b, err = io.ReadAll(io.LimitReader(p, 512))
			back = studioPath(string(b))
		}
		p.Close()
		if err != nil {
			return s.answerErr(c, back, err)
		}
	}
	if !seenFile || len(data) == 0 {
		return s.refused(c, back, refuse(http.StatusUnprocessableEntity, "file", "Choose an image file to upload."))
	}
	im, err := s.Upload(r.Context(), c.Get(accountKey).(uint64), data, alt)
	if err != nil {
		return s.answerErr(c, back, err)
	}
	if back != "" { // a form without JavaScript: back to the studio page
		return c.Redirect(http.StatusSeeOther, withQuery(back, "image", strconv.FormatUint(im.ID, 10)))
	}
	return c.JSON(http.StatusCreated, map[string]any{"data": uploadJSON{im, im.Markdown()}})
}

// studioPath is a form's return address when it is a studio page.
func studioPath(p string) string {
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || !strings.HasPrefix(u.Path, "/staff") || strings.Contains(u.Path, "//") {
		return ""
	}
	return u.Path
}

func withQuery(p, k, v string) string { return p + "?" + url.Values{k: {v}}.Encode() }

func (s *Store) answerErr(c echo.Context, back string, err error) error {
	var ref *Refusal
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &ref):
		return s.refused(c, back, ref)
	case errors.As(err, &tooBig):
		return s.refused(c, back, refuse(http.StatusRequestEntityTooLarge, "file", "The file is larger than %d MB.", s.opts.MaxUploadBytes>>20))
	case errors.Is(err, ErrBusy):
		return response.Error(c, http.StatusServiceUnavailable, "Another image is being processed. Please try again in a moment.")
	}
	slog.ErrorContext(c.Request().Context(), "images: upload", "err", err)
	return response.Error(c, http.StatusServiceUnavailable, "The image could not be stored right now. Nothing was saved; please try again.")
}

func (s *Store) refused(c echo.Context, back string, ref *Refusal) error {
	if back != "" {
		return c.Redirect(http.StatusSeeOther, withQuery(back, "imageError", ref.Detail))
	}
	body := map[string]any{"errorDetail": ref.Detail}
	if ref.Field != "" {
		body["fieldErrors"] = map[string]string{ref.Field: ref.Detail}
	}
	return c.JSON(ref.Status, body)
}

func (s *Store) list(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Get(accountKey).(uint64)
	ims, err := s.List(ctx, id, 100)
	if err != nil {
		return s.answerErr(c, "", err)
	}
	used, quota, err := s.Used(ctx, id)
	if err != nil {
		return s.answerErr(c, "", err)
	}
	out := make([]uploadJSON, len(ims))
	for i := range ims {
		out[i] = uploadJSON{&ims[i], ims[i].Markdown()}
	}
	return c.JSON(http.StatusOK, map[string]any{"data": out, "usedBytes": used, "quotaBytes": quota})
}

func (s *Store) remove(c echo.Context) error {
	id, err := strconv.ParseUint(c.Param("id"), 10, 64)
	if err != nil {
		return response.Error(c, http.StatusNotFound, "No such image.")
	}
	ok, err := s.Delete(c.Request().Context(), c.Get(accountKey).(uint64), id)
	if err != nil {
		return s.answerErr(c, "", err)
	}
	if !ok {
		return response.Error(c, http.StatusNotFound, "No such image of yours.")
	}
	return c.JSON(http.StatusOK, map[string]any{"data": map[string]uint64{"id": id}})
}

// serve answers an image's variant: its bytes never change (a new upload
// is a new id), so browsers and the CDN keep it for a year.
func (s *Store) serve(c echo.Context) error {
	id, err := strconv.ParseUint(c.Param("id"), 10, 64)
	name, extension, ok := strings.Cut(c.Param("file"), ".")
	width, werr := strconv.Atoi(name)
	format := map[string]string{"webp": "webp", "jpg": "jpeg", "png": "png"}[extension]
	if err != nil || werr != nil || !ok || format == "" || width <= 0 {
		return c.NoContent(http.StatusNotFound)
	}
	etag := `"` + strconv.FormatUint(id, 10) + "-" + name + "-" + format + `"`
	return response.Immutable(c, etag, "images", func(ctx context.Context) ([]byte, string, error) {
		v, err := s.Body(ctx, id, width, format)
		if err != nil || v == nil {
			return nil, "", err
		}
		return v.Body, v.ContentType, nil
	})
}
