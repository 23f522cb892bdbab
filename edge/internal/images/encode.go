package images

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"

	"github.com/gen2brain/webp"
	"golang.org/x/image/draw"
	xwebp "golang.org/x/image/webp"
)

// decoders by the type read from the file's first bytes (never from its
// name or the Content-Type its sender claims). WebP is decoded by
// golang.org/x/image, in Go.
var decoders = map[string]struct {
	config func([]byte) (image.Config, error)
	decode func([]byte) (image.Image, error)
}{
	"image/jpeg": {func(b []byte) (image.Config, error) { return jpeg.DecodeConfig(bytes.NewReader(b)) }, func(b []byte) (image.Image, error) { return jpeg.Decode(bytes.NewReader(b)) }},
	"image/png":  {func(b []byte) (image.Config, error) { return png.DecodeConfig(bytes.NewReader(b)) }, func(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) }},
	// An animated GIF keeps its first frame.
	"image/gif":  {func(b []byte) (image.Config, error) { return gif.DecodeConfig(bytes.NewReader(b)) }, func(b []byte) (image.Image, error) { return gif.Decode(bytes.NewReader(b)) }},
	"image/webp": {func(b []byte) (image.Config, error) { return xwebp.DecodeConfig(bytes.NewReader(b)) }, func(b []byte) (image.Image, error) { return xwebp.Decode(bytes.NewReader(b)) }},
}

// Sniff is the image type of data's first bytes, or "" for anything else
// (an SVG, which can carry script, is not taken).
func Sniff(data []byte) string {
	t := http.DetectContentType(data)
	if _, ok := decoders[t]; ok {
		return t
	}
	return ""
}

// encodeVariants decodes data (after checking its header's size against
// the caps) and encodes it at each of Widths it is at least as wide as
// (or at its own width when narrower than all), as WebP and as JPEG, or
// PNG when it has transparency. Everything but the pixels (EXIF, a GPS
// position, colour profiles, trailing bytes) is left behind.
func encodeVariants(data []byte, maxPixels, maxSide int) ([]Variant, int, int, error) {
	t := Sniff(data)
	if t == "" {
		return nil, 0, 0, refuse(415, "file", "That file is not a JPEG, PNG, GIF or WebP image.")
	}
	d := decoders[t]
	cfg, err := d.config(data)
	if err != nil {
		return nil, 0, 0, refuse(422, "file", "That image cannot be read: it is damaged or incomplete.")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxSide || cfg.Height > maxSide || cfg.Width*cfg.Height > maxPixels {
		return nil, 0, 0, refuse(422, "file", "The image is %d × %d pixels; the largest taken is %d megapixels, at most %d pixels a side.",
			cfg.Width, cfg.Height, maxPixels/1_000_000, maxSide)
	}
	src, err := d.decode(data)
	if err != nil {
		return nil, 0, 0, refuse(422, "file", "That image cannot be read: it is damaged or incomplete.")
	}
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	alpha := hasAlpha(src)
	var out []Variant
	for _, tw := range targetWidths(w) {
		th := max(1, (h*tw+w/2)/w)
		img := src
		if tw != w {
			dst := image.NewNRGBA(image.Rect(0, 0, tw, th))
			draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
			img = dst
		}
		var wb bytes.Buffer
		if err := webp.Encode(&wb, img, webp.Options{Quality: 78, Method: 4}); err != nil {
			return nil, 0, 0, err
		}
		out = append(out, Variant{Width: tw, Height: th, Format: "webp", ContentType: "image/webp", Body: wb.Bytes()})
		var fb bytes.Buffer
		if alpha {
			if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&fb, img); err != nil {
				return nil, 0, 0, err
			}
			out = append(out, Variant{Width: tw, Height: th, Format: "png", ContentType: "image/png", Body: fb.Bytes()})
		} else {
			if err := jpeg.Encode(&fb, opaque(img), &jpeg.Options{Quality: 82}); err != nil {
				return nil, 0, 0, err
			}
			out = append(out, Variant{Width: tw, Height: th, Format: "jpeg", ContentType: "image/jpeg", Body: fb.Bytes()})
		}
	}
	return out, w, h, nil
}

// targetWidths are the Widths not wider than w, with w itself when it is
// narrower than the smallest.
func targetWidths(w int) []int {
	var out []int
	for _, tw := range Widths {
		if tw <= w {
			out = append(out, tw)
		}
	}
	if len(out) == 0 {
		out = []int{w}
	}
	return out
}

// hasAlpha reports whether any pixel is not fully opaque.
func hasAlpha(m image.Image) bool {
	if o, ok := m.(interface{ Opaque() bool }); ok {
		return !o.Opaque()
	}
	return true
}

// opaque puts a transparent-free image on white for JPEG (which has no
// alpha); an opaque one passes as it is.
func opaque(m image.Image) image.Image {
	if o, ok := m.(interface{ Opaque() bool }); ok && o.Opaque() {
		return m
	}
	dst := image.NewRGBA(m.Bounds())
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(dst, dst.Bounds(), m, m.Bounds().Min, draw.Over)
	return dst
}
