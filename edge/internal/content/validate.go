package content

import (
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"omnibus/edge/internal/validation"
)

// The words of a refused field (the studio shows them beside the field).
var fieldWords = map[string]string{
	validation.Required:  "Fill this in.",
	validation.Invalid:   "This is not in the right form.",
	validation.TooShort:  "This is too short.",
	validation.TooLong:   "This is too long.",
	validation.Forbidden: "This has characters that cannot be used.",
}

// reservedPrefixes are the edge's own addresses: no redirect may start there.
var reservedPrefixes = []string{"/api/", "/staff", "/preview/", "/go/", "/assets/", "/healthz", "/readyz"}

// validate checks a draft of an item of typ (id 0: a new item) against the
// rules of shared/validation.json and the store (slug taken, category
// known, target a page, no redirect loop, chain or shadowed page). It
// returns the draft cleaned (trimmed, unknown fields dropped).
func (s *Store) validate(tx *gorm.DB, typ string, id uint64, d Draft) (Draft, FieldErrors) {
	spec := Specs[typ]
	fe := FieldErrors{}
	check := func(name, rule, value string) string {
		v, code := validation.Check(rule, value)
		if code != validation.OK {
			fe[name] = fieldWords[code]
		}
		return v
	}
	out := Draft{Fields: map[string]string{}, Note: d.Note}
	out.Slug = check("slug", spec.SlugRule, d.Slug)
	out.Note = check("note", "contentNote", d.Note)
	for _, f := range spec.Fields {
		raw := d.Fields[f.Name]
		var v string
		switch {
		case !f.Required && strings.TrimSpace(raw) == "":
			continue
		case f.Rule != "":
			v = check(f.Name, f.Rule, raw)
			if f.Required && v == "" && fe[f.Name] == "" {
				fe[f.Name] = fieldWords[validation.Required]
			}
		default:
			v = strings.TrimSpace(raw)
		}
		if v != "" {
			out.Fields[f.Name] = v
		}
	}
	if spec.Body {
		if strings.TrimSpace(d.Body) == "" {
			fe["body"] = fieldWords[validation.Required]
		} else if len(d.Body) > MaxBodyBytes || validation.HasForbidden(d.Body, true) {
			fe["body"] = "The text is too long or has characters that cannot be used."
		}
		out.Body = strings.TrimSpace(strings.ReplaceAll(d.Body, "\r\n", "\n")) + "\n"
	}
	for _, k := range []string{"date", "updated"} {
		if v := out.Fields[k]; v != "" && fe[k] == "" {
			if _, err := time.Parse(time.DateOnly, v); err != nil {
				fe[k] = "This is not a day (YYYY-MM-DD)."
			}
		}
	}
	if u, dt := out.Fields["updated"], out.Fields["date"]; u != "" && dt != "" && u < dt && fe["updated"] == "" {
		fe["updated"] = "The update cannot be before the publication date."
	}
	if p := out.Fields["position"]; p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 0 || n > 10000 {
			fe["position"] = "Give a whole number from 0 to 10000."
		}
	}
	if fe["slug"] == "" && out.Slug != "" {
		if taken, err := s.slugTaken(tx, typ, id, out.Slug); err != nil || taken {
			fe["slug"] = "This address is already used by another item."
		}
	}
	if typ == TypeHelp && fe["category"] == "" && out.Fields["category"] != "" {
		var n int64
		tx.Model(&itemRow{}).Where("type = ? AND slug = ? AND state = ?", TypeHelpCategory, out.Fields["category"], StatePublished).Count(&n)
		if n == 0 {
			fe["category"] = "Choose one of the help centre's categories."
		}
	}
	switch typ {
	case TypeCampaignLink:
		if fe["target"] == "" && out.Fields["target"] != "" && !s.isPage(tx, out.Fields["target"]) {
			fe["target"] = "This is not a page of the site."
		}
	case TypeRedirect:
		s.validateRedirect(tx, id, &out, fe)
	}
	if len(fe) > 0 {
		return out, fe
	}
	return out, nil
}

func (s *Store) validateRedirect(tx *gorm.DB, id uint64, d *Draft, fe FieldErrors) {
	status := d.Fields["status"]
	if status != "301" && status != "302" && status != "410" && fe["status"] == "" {
		fe["status"] = "Choose 301 (moved for good), 302 (for now) or 410 (gone)."
	}
	from := d.Slug
	if fe["slug"] == "" && from != "" {
		if strings.Contains(from, "#") || from == "/" {
			fe["slug"] = "Give the old address without #."
		}
		for _, p := range reservedPrefixes {
			if strings.HasPrefix(from, p) {
				fe["slug"] = "This address belongs to the site itself."
			}
		}
		// Redirects are looked up in any letter case (redirectKey), so /About
		// would take /about's visitors.
		if fe["slug"] == "" && (s.isPage(tx, from) || s.isPage(tx, redirectKey(from))) {
			fe["slug"] = "A page of the site lives at this address: a redirect may not hide it."
		}
		if fe["slug"] == "" {
			// Another redirect leads here: this one would make a chain.
			var n int64
			tx.Raw(`SELECT count(*) FROM content_items i JOIN content_revisions r ON r.id = i.published_revision_id
				WHERE i.type = ? AND i.id <> ? AND i.state = ? AND (r.fields LIKE ? OR r.fields LIKE ?)`,
				TypeRedirect, id, StatePublished, `%"target":"`+from+`"%`, `%"target":"`+from+`#%`).Scan(&n)
			if n > 0 {
				fe["slug"] = "Another redirect leads to this address: point that one at the final page instead."
			}
		}
	}
	target := d.Fields["target"]
	switch {
	case status == "410":
		delete(d.Fields, "target")
	case target == "" && fe["target"] == "":
		fe["target"] = fieldWords[validation.Required]
	case target != "" && fe["target"] == "":
		path, _, _ := strings.Cut(target, "#")
		if path == from {
			fe["target"] = "A redirect cannot lead to itself."
		} else if s.isRedirect(tx, path) {
			fe["target"] = "This address is itself redirected: lead to the final page instead."
		} else if !s.isPage(tx, path) {
			fe["target"] = "This is not a page of the site."
		}
	}
}

// slugTaken reports another item of typ known by slug, live or in its draft.
func (s *Store) slugTaken(tx *gorm.DB, typ string, id uint64, slug string) (bool, error) {
	var n int64
	err := tx.Raw(`SELECT count(*) FROM content_items i JOIN content_revisions r ON r.id = i.latest_revision_id
		WHERE i.type = ? AND i.id <> ? AND (i.slug = ? OR r.slug = ?)`, typ, id, slug, slug).Scan(&n).Error
	if err != nil {
		return false, err
	}
	if n == 0 {
		// An item just created has no revision yet in this transaction.
		err = tx.Model(&itemRow{}).Where("type = ? AND id <> ? AND slug = ?", typ, id, slug).Count(&n).Error
	}
	return n > 0, err
}

// isPage reports a page of the site at path (with an optional #anchor): a
// page of the route table, or a published item's page.
func (s *Store) isPage(tx *gorm.DB, path string) bool {
	path, _, _ = strings.Cut(path, "#")
	if IsRoutePage(path) {
		return true
	}
	for _, t := range []string{TypeBlog, TypeHelp, TypeHelpCategory, TypePolicy} {
		prefix := PagePath(t, "")
		if slug, ok := strings.CutPrefix(path, prefix); ok && slug != "" && !strings.Contains(slug, "/") {
			var n int64
			tx.Model(&itemRow{}).Where("type = ? AND slug = ? AND state = ?", t, slug, StatePublished).Count(&n)
			if n > 0 {
				return true
			}
		}
	}
	return false
}

func (s *Store) isRedirect(tx *gorm.DB, path string) bool {
	var n int64
	err := tx.Model(&itemRow{}).Where("type = ? AND slug = ? AND state = ?", TypeRedirect, path, StatePublished).Count(&n).Error
	return err == nil && n > 0
}
