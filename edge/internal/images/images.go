// Package images keeps the pictures staff put in articles: an upload is
// checked (its type read from its bytes, its size and pixel count capped
// before it is decoded, alt text required, each member's storage bounded),
// re-encoded at a few widths as WebP and as JPEG or PNG (decision 0047), and
// stored in the database, so every edge serves it (handlers.go). An
// article's HTML names an image by its address; Responsive turns those
// <img> tags into a <picture> with srcset, width and height.
package images

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/validation"
)

// PathPrefix is where images are served: PathPrefix + "{id}/{width}.{ext}".
const PathPrefix = "/media/images/"

// Defaults of Options.
const (
	DefaultMaxUploadBytes = 15 << 20
	// DefaultMaxPixels is the largest picture decoded (width × height): a
	// 25-megapixel photo. A file that claims more (a decompression bomb: a
	// few kilobytes of PNG that would unpack to gigabytes) is refused from
	// its header, before any pixel is decoded.
	DefaultMaxPixels = 25_000_000
	// DefaultMaxSide bounds either side, so a 1×25,000,000 strip is refused too.
	DefaultMaxSide = 12_000
	// DefaultQuotaBytes is what one member's images may take in all.
	DefaultQuotaBytes = 200 << 20
)

// Widths are the widths an image is stored at (never wider than it is).
var Widths = []int{480, 960, 1600}

// Options configure New.
type Options struct {
	MaxUploadBytes int64
	MaxPixels      int
	MaxSide        int
	QuotaBytes     int64
	Now            func() time.Time
}

// Store reads and writes images.
type Store struct {
	db   *storage.DB
	opts Options
	// busy admits one re-encoding at a time per edge: a decoded picture can
	// take a hundred megabytes, and encoding takes both cores for a second.
	busy chan struct{}
}

// New returns a store on db.
func New(db *storage.DB, opts Options) *Store {
	if opts.MaxUploadBytes <= 0 {
		opts.MaxUploadBytes = DefaultMaxUploadBytes
	}
	if opts.MaxPixels <= 0 {
		opts.MaxPixels = DefaultMaxPixels
	}
	if opts.MaxSide <= 0 {
		opts.MaxSide = DefaultMaxSide
	}
	if opts.QuotaBytes <= 0 {
		opts.QuotaBytes = DefaultQuotaBytes
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Store{db: db, opts: opts, busy: make(chan struct{}, 1)}
}

// Image is an uploaded picture as the studio sees it.
type Image struct {
	ID        uint64    `json:"id"`
	AccountID uint64    `json:"-"`
	Alt       string    `json:"alt"`
	Width     int       `json:"width"`
	Height    int       `json:"height"`
	Bytes     int64     `json:"bytes"`
	CreatedAt time.Time `json:"createdAt"`
	// Variants are the stored encodings, smallest first (not a column).
	Variants []Variant `json:"variants" gorm:"-"`
}

// TableName is migration 250's table.
func (Image) TableName() string { return "images" }

// Variant is one stored encoding.
type Variant struct {
	ImageID     uint64 `json:"-"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Format      string `json:"format"` // webp, jpeg, png
	ContentType string `json:"contentType"`
	Body        []byte `json:"-"`
	Size        int    `json:"bytes" gorm:"->;column:size"`
}

// TableName is migration 250's table.
func (Variant) TableName() string { return "image_variants" }

// URL is the variant's address.
func (v Variant) URL() string {
	return PathPrefix + strconv.FormatUint(v.ImageID, 10) + "/" + strconv.Itoa(v.Width) + "." + ext(v.Format)
}

func ext(format string) string {
	if format == "jpeg" {
		return "jpg"
	}
	return format
}

// Markdown is what the editor inserts: the image at its largest fallback
// width, which Responsive turns into a <picture> when the article is
// rendered.
func (im *Image) Markdown() string {
	src := ""
	for _, v := range im.Variants {
		if v.Format != "webp" {
			src = v.URL()
		}
	}
	alt := strings.NewReplacer("[", "(", "]", ")", "\\", "/").Replace(im.Alt)
	return "![" + alt + "](" + src + ")"
}

// A Refusal is an upload the store does not take: Status is the HTTP
// status, Field (when set) the form field it is about.
type Refusal struct {
	Status int
	Field  string
	Detail string
}

func (r *Refusal) Error() string { return r.Detail }

func refuse(status int, field, format string, a ...any) *Refusal {
	return &Refusal{Status: status, Field: field, Detail: fmt.Sprintf(format, a...)}
}

// ErrBusy is returned when another upload is being re-encoded on this edge
// for longer than the caller's context allows.
var ErrBusy = errors.New("images: another upload is being processed")

// Upload checks, re-encodes and stores a member's picture. A *Refusal says
// why one is not taken; any other error is the database's or ErrBusy.
func (s *Store) Upload(ctx context.Context, accountID uint64, data []byte, alt string) (*Image, error) {
	alt, problem := validation.Check("imageAlt", alt)
	switch problem {
	case validation.OK:
	case validation.Required:
		return nil, refuse(422, "alt", "Describe the image for people who cannot see it (alt text).")
	case validation.TooLong:
		return nil, refuse(422, "alt", "Alt text is at most %d characters.", validation.Field("imageAlt").MaxLength)
	default:
		return nil, refuse(422, "alt", "Alt text has characters it cannot take (line breaks or invisible characters).")
	}
	if int64(len(data)) > s.opts.MaxUploadBytes {
		return nil, refuse(413, "file", "The file is larger than %d MB.", s.opts.MaxUploadBytes>>20)
	}
	select {
	case s.busy <- struct{}{}:
		defer func() { <-s.busy }()
	case <-ctx.Done():
		return nil, ErrBusy
	}
	variants, w, h, err := encodeVariants(data, s.opts.MaxPixels, s.opts.MaxSide)
	if err != nil {
		return nil, err
	}
	im := &Image{AccountID: accountID, Alt: alt, Width: w, Height: h, CreatedAt: s.opts.Now().UTC()}
	for i := range variants {
		im.Bytes += int64(len(variants[i].Body))
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// Two uploads of one member at once must not both fit under the
		// quota: on PostgreSQL they take turns on a lock per member (SQLite
		// has one writer at a time).
		if s.db.Postgres {
			if err := tx.Exec("SELECT pg_advisory_xact_lock(hashtext('omnibus.images.' || coalesce(current_schema(), '') || '.' || ?))", strconv.FormatUint(accountID, 10)).Error; err != nil {
				return err
			}
		}
		var used int64
		if err := tx.Model(&Image{}).Where("account_id = ?", accountID).Select("coalesce(sum(bytes), 0)").Scan(&used).Error; err != nil {
			return err
		}
		if used+im.Bytes > s.opts.QuotaBytes {
			return refuse(413, "file", "Your images take %s of your %s; this one needs %s more. Delete some you no longer use.",
				mb(used), mb(s.opts.QuotaBytes), mb(im.Bytes))
		}
		if err := tx.Create(im).Error; err != nil {
			return err
		}
		for i := range variants {
			variants[i].ImageID = im.ID
		}
		return tx.CreateInBatches(variants, 4).Error
	})
	if err != nil {
		return nil, err
	}
	im.Variants = withSizes(variants)
	return im, nil
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

func withSizes(vs []Variant) []Variant {
	out := make([]Variant, len(vs))
	for i, v := range vs {
		v.Size = len(v.Body)
		v.Body = nil
		out[i] = v
	}
	return out
}

// List is a member's images, newest first, with their variants (no bytes).
func (s *Store) List(ctx context.Context, accountID uint64, limit int) ([]Image, error) {
	var ims []Image
	if err := s.db.WithContext(ctx).Where("account_id = ?", accountID).Order("id desc").Limit(limit).Find(&ims).Error; err != nil {
		return nil, err
	}
	for i := range ims {
		vs, err := s.variants(ctx, ims[i].ID)
		if err != nil {
			return nil, err
		}
		ims[i].Variants = vs
	}
	return ims, nil
}

// Used is what a member's images take, against the quota.
func (s *Store) Used(ctx context.Context, accountID uint64) (used, quota int64, err error) {
	err = s.db.WithContext(ctx).Model(&Image{}).Where("account_id = ?", accountID).Select("coalesce(sum(bytes), 0)").Scan(&used).Error
	return used, s.opts.QuotaBytes, err
}

// variants are an image's encodings without their bytes, by width, WebP
// before the fallback.
func (s *Store) variants(ctx context.Context, id uint64) ([]Variant, error) {
	var vs []Variant
	err := s.db.WithContext(ctx).Select("image_id", "width", "height", "format", "content_type", "length(body) AS size").
		Where("image_id = ?", id).Order("width, format desc").Find(&vs).Error
	return vs, err
}

// Delete removes a member's own image. False when it is not theirs or gone.
func (s *Store) Delete(ctx context.Context, accountID, id uint64) (bool, error) {
	gone := false
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Where("id = ? AND account_id = ?", id, accountID).Delete(&Image{})
		if res.Error != nil || res.RowsAffected == 0 {
			return res.Error
		}
		gone = true
		return tx.Where("image_id = ?", id).Delete(&Variant{}).Error
	})
	return gone, err
}

// Body is one stored encoding with its bytes; nil when there is none.
func (s *Store) Body(ctx context.Context, id uint64, width int, format string) (*Variant, error) {
	var vs []Variant
	if err := s.db.WithContext(ctx).Where("image_id = ? AND width = ? AND format = ?", id, width, format).Limit(1).Find(&vs).Error; err != nil {
		return nil, err
	}
	if len(vs) == 0 {
		return nil, nil
	}
	return &vs[0], nil
}
