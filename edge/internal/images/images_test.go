package images_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	xwebp "golang.org/x/image/webp"

	"omnibus/edge/internal/images"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// picture is a w×h image with a gradient (so encoders have work), with
// transparency when alpha.
func picture(w, h int, alpha bool) image.Image {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			a := uint8(255)
			if alpha && x < w/2 {
				a = 90
			}
			m.SetNRGBA(x, y, color.NRGBA{uint8(x * 255 / w), uint8(y * 255 / h), 120, a})
		}
	}
	return m
}

func jpegBytes(t *testing.T, w, h int) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, picture(w, h, false), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func pngBytes(t *testing.T, m image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// bomb is a PNG of a few dozen bytes whose header claims w×h pixels: what
// a decompression bomb looks like before it is decoded.
func bomb(t *testing.T, w, h uint32) []byte {
	b := pngBytes(t, picture(1, 1, false))
	// IHDR's data starts at byte 16 (8 signature, 4 length, 4 type); its CRC
	// covers type and data (bytes 12 to 29) and follows them.
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

type member struct {
	id              uint64
	signedIn, staff bool
}

// studio is the API and the image addresses on an echo of their own; the
// member the request is from is named by its X-Test-Member header.
func studio(t *testing.T, db *storage.DB, opts images.Options) (*images.Store, http.Handler) {
	store := images.New(db, opts)
	e := echo.New()
	members := map[string]member{"staff": {1, true, true}, "staff2": {2, true, true}, "merchant": {3, true, false}}
	// As staff.Require answers: 401 without a studio session, 403 for a
	// member whose role is too low.
	guard := func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			m := members[c.Request().Header.Get("X-Test-Member")]
			switch {
			case !m.signedIn:
				return c.JSON(http.StatusUnauthorized, map[string]string{"errorDetail": "sign in"})
			case !m.staff:
				return c.JSON(http.StatusForbidden, map[string]string{"errorDetail": "no access"})
			}
			return next(c)
		}
	}
	store.Register(e.Group("/api/v1"), e, images.Access{Guard: guard, Account: func(c echo.Context) (uint64, bool) {
		m := members[c.Request().Header.Get("X-Test-Member")]
		return m.id, m.signedIn
	}}, func(next echo.HandlerFunc) echo.HandlerFunc { return next })
	return store, e
}

func upload(t *testing.T, h http.Handler, who string, data []byte, alt string) *httptest.ResponseRecorder {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("alt", alt)
	fw, _ := mw.CreateFormFile("file", "photo.jpg")
	fw.Write(data)
	mw.Close()
	r := httptest.NewRequest(http.MethodPost, "/api/v1/staff/images", &body)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	r.Header.Set("X-Test-Member", who)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

type uploaded struct {
	Data struct {
		ID       uint64 `json:"id"`
		Width    int    `json:"width"`
		Height   int    `json:"height"`
		Alt      string `json:"alt"`
		Markdown string `json:"markdown"`
		Variants []struct {
			Width, Height int
			Format        string
		} `json:"variants"`
	} `json:"data"`
	ErrorDetail string            `json:"errorDetail"`
	FieldErrors map[string]string `json:"fieldErrors"`
}

func decode(t *testing.T, w *httptest.ResponseRecorder) uploaded {
	t.Helper()
	var u uploaded
	if err := json.Unmarshal(w.Body.Bytes(), &u); err != nil {
		t.Fatalf("%d %s: %v", w.Code, w.Body, err)
	}
	return u
}

func get(h http.Handler, path string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	return w
}

// A staff member's photo is stored at the widths a phone and a desktop
// need, as WebP and JPEG, and every edge serves those bytes from the
// database with their true size; a visitor's browser keeps them a year.
func TestUploadedPhotoIsServedAsWebPAndJPEGAtSeveralWidths(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		_, h := studio(t, db, images.Options{})
		w := upload(t, h, "staff", jpegBytes(t, 1200, 800), "  A merchant packing parcels ")
		if w.Code != http.StatusCreated {
			t.Fatalf("upload: %d %s", w.Code, w.Body)
		}
		u := decode(t, w).Data
		if u.Width != 1200 || u.Height != 800 || u.Alt != "A merchant packing parcels" {
			t.Fatalf("image %+v", u)
		}
		var got []string
		for _, v := range u.Variants {
			got = append(got, v.Format+"@"+itoa(v.Width)+"x"+itoa(v.Height))
		}
		if want := "webp@480x320 jpeg@480x320 webp@960x640 jpeg@960x640"; strings.Join(got, " ") != want {
			t.Fatalf("variants %v, want %s (never wider than the photo)", got, want)
		}
		if want := "![A merchant packing parcels](/media/images/" + itoa(int(u.ID)) + "/960.jpg)"; u.Markdown != want {
			t.Errorf("markdown %q, want %q", u.Markdown, want)
		}
		r := get(h, "/media/images/"+itoa(int(u.ID))+"/480.webp")
		if r.Code != http.StatusOK || r.Header().Get("Content-Type") != "image/webp" || !strings.Contains(r.Header().Get("Cache-Control"), "immutable") {
			t.Fatalf("webp: %d %v", r.Code, r.Header())
		}
		cfg, err := xwebp.DecodeConfig(bytes.NewReader(r.Body.Bytes()))
		if err != nil || cfg.Width != 480 || cfg.Height != 320 {
			t.Fatalf("served webp: %+v %v", cfg, err)
		}
		r = get(h, "/media/images/"+itoa(int(u.ID))+"/960.jpg")
		jc, err := jpeg.DecodeConfig(bytes.NewReader(r.Body.Bytes()))
		if r.Code != http.StatusOK || err != nil || jc.Width != 960 {
			t.Fatalf("served jpeg: %d %+v %v", r.Code, jc, err)
		}
		rr := httptest.NewRequest(http.MethodGet, "/media/images/"+itoa(int(u.ID))+"/960.jpg", nil)
		rr.Header.Set("If-None-Match", r.Header().Get("ETag"))
		w304 := httptest.NewRecorder()
		h.ServeHTTP(w304, rr)
		if w304.Code != http.StatusNotModified {
			t.Errorf("revalidation: %d", w304.Code)
		}
		if r := get(h, "/media/images/"+itoa(int(u.ID))+"/1600.jpg"); r.Code != http.StatusNotFound {
			t.Errorf("a width never stored: %d", r.Code)
		}
	})
}

// A picture with transparency keeps it: its fallback is PNG, not JPEG on
// black; a small one is stored at its own width only.
func TestTransparentImageFallsBackToPNG(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		_, h := studio(t, db, images.Options{})
		w := upload(t, h, "staff", pngBytes(t, picture(300, 200, true)), "Logo")
		if w.Code != http.StatusCreated {
			t.Fatalf("upload: %d %s", w.Code, w.Body)
		}
		u := decode(t, w).Data
		if len(u.Variants) != 2 || u.Variants[0].Width != 300 || u.Variants[1].Format != "png" && u.Variants[0].Format != "png" {
			t.Fatalf("variants %+v", u.Variants)
		}
		r := get(h, "/media/images/"+itoa(int(u.ID))+"/300.png")
		m, err := png.Decode(bytes.NewReader(r.Body.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, _, a := m.At(10, 10).RGBA(); a == 0xffff {
			t.Errorf("transparency lost")
		}
	})
}

// What the studio refuses, each naming the field: no alt text, a file that
// is not an image whatever its name says (an HTML page, an SVG), a
// decompression bomb (refused from its header: the test would run out of
// memory otherwise), a picture past the size cap.
func TestUploadRefusals(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		_, h := studio(t, db, images.Options{MaxUploadBytes: 200 << 10})
		photo := jpegBytes(t, 100, 80)
		cases := []struct {
			name   string
			data   []byte
			alt    string
			status int
			field  string
		}{
			{"no alt text", photo, "   ", 422, "alt"},
			{"alt text with a line break", photo, "one\ntwo", 422, "alt"},
			{"an HTML page named photo.jpg", []byte("<!DOCTYPE html><script>alert(1)</script>"), "x", 415, "file"},
			{"an SVG", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>`), "x", 415, "file"},
			{"a PNG claiming 100,000 × 100,000 pixels", bomb(t, 100_000, 100_000), "x", 422, "file"},
			{"a PNG claiming 6,000 × 6,000 pixels (36 megapixels)", bomb(t, 6000, 6000), "x", 422, "file"},
			{"a PNG claiming 20,000 × 10 pixels", bomb(t, 20_000, 10), "x", 422, "file"},
			{"a truncated JPEG", photo[:len(photo)/3], "x", 422, "file"},
			{"a file past the size cap", append(jpegBytes(t, 10, 10), make([]byte, 300<<10)...), "x", 413, ""},
		}
		for _, c := range cases {
			w := upload(t, h, "staff", c.data, c.alt)
			u := decode(t, w)
			if w.Code != c.status || u.ErrorDetail == "" || c.field != "" && u.FieldErrors[c.field] == "" {
				t.Errorf("%s: %d %s", c.name, w.Code, w.Body)
			}
		}
		var n int64
		db.Table("images").Count(&n)
		if n != 0 {
			t.Errorf("%d images stored after refusals", n)
		}
		if w := upload(t, h, "merchant", photo, "x"); w.Code != http.StatusForbidden {
			t.Errorf("a merchant uploads: %d", w.Code)
		}
		if w := upload(t, h, "", photo, "x"); w.Code != http.StatusUnauthorized {
			t.Errorf("signed out: %d", w.Code)
		}
	})
}

// One member's images are bounded in all; another member's upload is not
// held against them; deleting frees the room.
func TestStoragePerMemberIsBounded(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		store, h := studio(t, db, images.Options{})
		first := upload(t, h, "staff", jpegBytes(t, 500, 400), "first")
		if first.Code != http.StatusCreated {
			t.Fatalf("first: %d %s", first.Code, first.Body)
		}
		used, _, err := store.Used(t.Context(), 1)
		if err != nil || used == 0 {
			t.Fatalf("used %d %v", used, err)
		}
		// A quota of what the first took, plus a little: the second does not fit.
		store2, h2 := studio(t, db, images.Options{QuotaBytes: used + 100})
		_ = store2
		w := upload(t, h2, "staff", jpegBytes(t, 500, 400), "second")
		if u := decode(t, w); w.Code != http.StatusRequestEntityTooLarge || u.FieldErrors["file"] == "" {
			t.Fatalf("over quota: %d %s", w.Code, w.Body)
		}
		if w := upload(t, h2, "staff2", jpegBytes(t, 500, 400), "theirs"); w.Code != http.StatusCreated {
			t.Fatalf("another member: %d %s", w.Code, w.Body)
		}
		id := itoa(int(decode(t, first).Data.ID))
		del := func(who string) int {
			r := httptest.NewRequest(http.MethodDelete, "/api/v1/staff/images/"+id, nil)
			r.Header.Set("X-Test-Member", who)
			w := httptest.NewRecorder()
			h2.ServeHTTP(w, r)
			return w.Code
		}
		if c := del("staff2"); c != http.StatusNotFound {
			t.Errorf("someone else's image deleted: %d", c)
		}
		if c := del("staff"); c != http.StatusOK {
			t.Fatalf("delete: %d", c)
		}
		if r := get(h2, "/media/images/"+id+"/480.jpg"); r.Code != http.StatusNotFound {
			t.Errorf("deleted image still served: %d", r.Code)
		}
		if w := upload(t, h2, "staff", jpegBytes(t, 500, 400), "second"); w.Code != http.StatusCreated {
			t.Errorf("after delete: %d %s", w.Code, w.Body)
		}
	})
}

// An article's <img> of an upload becomes a <picture> with WebP first,
// every width in srcset, and width and height so nothing shifts; an address
// that names no stored image stays as it is.
func TestResponsiveRewritesArticleImages(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		store, h := studio(t, db, images.Options{})
		u := decode(t, upload(t, h, "staff", jpegBytes(t, 1000, 500), `Chart of "sales"`)).Data
		id := itoa(int(u.ID))
		in := `<p>Before</p><p><img src="/media/images/` + id + `/960.jpg" alt="Chart of &#34;sales&#34;"></p><img src="/media/images/99999/480.jpg" alt="gone">`
		out, err := store.Responsive(t.Context(), in)
		if err != nil {
			t.Fatal(err)
		}
		want := `<picture><source type="image/webp" srcset="/media/images/` + id + `/480.webp 480w, /media/images/` + id + `/960.webp 960w" sizes="` + images.Sizes + `">` +
			`<img src="/media/images/` + id + `/960.jpg" srcset="/media/images/` + id + `/480.jpg 480w, /media/images/` + id + `/960.jpg 960w" sizes="` + images.Sizes +
			`" width="960" height="480" alt="Chart of &#34;sales&#34;" loading="lazy" decoding="async"></picture>`
		if !strings.Contains(out, want) {
			t.Errorf("rewritten:\n%s\nwant it to contain\n%s", out, want)
		}
		if !strings.Contains(out, `<img src="/media/images/99999/480.jpg" alt="gone">`) {
			t.Errorf("unknown image changed: %s", out)
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }
