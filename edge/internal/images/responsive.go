package images

import (
	"context"
	"html"
	"regexp"
	"strconv"
	"strings"
)

// imgTag finds an <img> of an uploaded image in sanitised article HTML (the
// edge's own Markdown renderer wrote it, so its attributes are quoted and
// escaped).
var imgTag = regexp.MustCompile(`<img\s[^>]*?src="` + regexp.QuoteMeta(PathPrefix) + `([0-9]{1,19})/[0-9]{1,5}\.(?:jpg|png|webp)"[^>]*>`)

var altAttr = regexp.MustCompile(`\salt="([^"]*)"`)

// Sizes is the sizes attribute of an article's images: the article column
// (46rem) on wide screens, the viewport's width on phones.
const Sizes = "(min-width: 48rem) 46rem, 100vw"

// Responsive replaces each <img> of an uploaded image in h with a <picture>:
// WebP for browsers that take it, the JPEG or PNG otherwise, each at every
// stored width (srcset), with the picture's width and height so the page
// does not shift as it loads. An address of an image that does not exist
// (deleted, or typed by hand) is left as it is.
func (s *Store) Responsive(ctx context.Context, h string) (string, error) {
	var err error
	out := imgTag.ReplaceAllStringFunc(h, func(tag string) string {
		if err != nil {
			return tag
		}
		m := imgTag.FindStringSubmatch(tag)
		id, perr := strconv.ParseUint(m[1], 10, 64)
		if perr != nil {
			return tag
		}
		var vs []Variant
		vs, err = s.variants(ctx, id)
		if err != nil || len(vs) == 0 {
			return tag
		}
		alt := ""
		if a := altAttr.FindStringSubmatch(tag); a != nil {
			alt = a[1] // already escaped
		}
		return picture(vs, alt)
	})
	if err != nil {
		return "", err
	}
	return out, nil
}

// picture is the markup for an image's variants (ordered by width).
func picture(vs []Variant, escapedAlt string) string {
	var webp, fallback []string
	var src Variant
	for _, v := range vs {
		entry := html.EscapeString(v.URL()) + " " + strconv.Itoa(v.Width) + "w"
		if v.Format == "webp" {
			webp = append(webp, entry)
			continue
		}
		fallback = append(fallback, entry)
		src = v // the widest
	}
	var b strings.Builder
	b.WriteString(`<picture>`)
	if len(webp) > 0 {
		b.WriteString(`<source type="image/webp" srcset="` + strings.Join(webp, ", ") + `" sizes="` + Sizes + `">`)
	}
	b.WriteString(`<img src="` + html.EscapeString(src.URL()) + `" srcset="` + strings.Join(fallback, ", ") + `" sizes="` + Sizes +
		`" width="` + strconv.Itoa(src.Width) + `" height="` + strconv.Itoa(src.Height) + `" alt="` + escapedAlt + `" loading="lazy" decoding="async">`)
	b.WriteString(`</picture>`)
	return b.String()
}
