package content

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"omnibus/shared"
)

// The repository's files are the store's seed (decision 0041): on first
// start each becomes an item whose first revision is authored by
// "repository", published. When a later release changes a file, the new
// text arrives as the item's next revision (and goes live if the item is
// live) unless a staff member saved the item since the last import: then it
// is kept as a pending repository revision the studio shows beside the
// current one, and nothing is overwritten.

// seed is one item of the repository's files.
type seed struct {
	Type  string
	Key   string // type/slug of the file: stays the item's even when staff rename it
	Draft Draft
}

func (s seed) hash() string {
	b, _ := json.Marshal(s.Draft)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// front is a file's front matter ("---\nkey: value\n---\nbody"; values
// may be quoted) and its body.
type front struct {
	fields map[string]string
	body   string
}

func parseFront(src []byte) (front, error) {
	s := strings.ReplaceAll(string(src), "\r\n", "\n")
	rest, ok := strings.CutPrefix(s, "---\n")
	if !ok {
		return front{}, fmt.Errorf("no front matter (the file must start with ---)")
	}
	head, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return front{}, fmt.Errorf("front matter is not closed with ---")
	}
	fields := map[string]string{}
	for _, line := range strings.Split(head, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return front{}, fmt.Errorf("front matter line %q is not key: value", line)
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
			v = v[1 : len(v)-1]
		}
		fields[strings.TrimSpace(k)] = v
	}
	return front{fields: fields, body: strings.TrimSpace(body) + "\n"}, nil
}

// Seeds reads the repository's content files: help categories, blog and
// help articles, policies, campaign links and the route table's redirects.
func Seeds() ([]seed, error) {
	var out []seed
	add := func(typ string, d Draft) {
		out = append(out, seed{Type: typ, Key: typ + "/" + d.Slug, Draft: d})
	}
	cats, err := Categories(shared.Articles)
	if err != nil {
		return nil, err
	}
	for i, c := range cats {
		add(TypeHelpCategory, Draft{Slug: c.Slug, Fields: map[string]string{"title": c.Title, "description": c.Description, "intro": c.Intro, "position": strconv.Itoa(i)}})
	}
	for _, src := range []struct{ typ, dir string }{{TypeBlog, "content/blog"}, {TypeHelp, "content/help"}, {TypePolicy, "content/policies"}} {
		names, err := fs.Glob(shared.Articles, path.Join(src.dir, "*.md"))
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			b, err := fs.ReadFile(shared.Articles, name)
			if err != nil {
				return nil, err
			}
			f, err := parseFront(b)
			if err != nil {
				return nil, fmt.Errorf("content: %s: %w", name, err)
			}
			d := Draft{Slug: f.fields["slug"], Body: f.body, Fields: map[string]string{}}
			for _, spec := range Specs[src.typ].Fields {
				if v := f.fields[spec.Name]; v != "" {
					d.Fields[spec.Name] = v
				}
			}
			if d.Slug == "" {
				return nil, fmt.Errorf("content: %s: no slug", name)
			}
			add(src.typ, d)
		}
	}
	var links struct {
		Links []struct {
			Name   string `json:"name"`
			Target string `json:"target"`
			UTM    struct {
				Source   string `json:"source"`
				Medium   string `json:"medium"`
				Campaign string `json:"campaign"`
			} `json:"utm"`
		} `json:"links"`
	}
	if err := json.Unmarshal(shared.CampaignLinksJSON, &links); err != nil {
		return nil, fmt.Errorf("content: campaign-links.json: %w", err)
	}
	for _, l := range links.Links {
		add(TypeCampaignLink, Draft{Slug: l.Name, Fields: map[string]string{"target": l.Target, "utmSource": l.UTM.Source, "utmMedium": l.UTM.Medium, "utmCampaign": l.UTM.Campaign}})
	}
	for _, r := range shared.Routes.Redirects {
		add(TypeRedirect, Draft{Slug: r.From, Fields: map[string]string{"target": r.To, "status": "301"}})
	}
	return out, nil
}

// Seed imports the repository's files (see above). Edges starting together
// take turns; an edge finding every file imported writes nothing.
func (s *Store) Seed(ctx context.Context) error {
	seeds, err := Seeds()
	if err != nil {
		return err
	}
	return s.seed(ctx, seeds)
}

func (s *Store) seed(ctx context.Context, seeds []seed) error {
	db := s.db.WithContext(ctx)
	var known []itemRow
	if err := db.Select("seed_key", "seed_hash").Where("seed_key <> ''").Find(&known).Error; err != nil {
		return err
	}
	have := map[string]string{}
	for _, k := range known {
		have[k.SeedKey] = k.SeedHash
	}
	pending := false
	for _, sd := range seeds {
		if have[sd.Key] != sd.hash() {
			pending = true
		}
	}
	if !pending {
		return nil
	}
	return db.Transaction(func(tx *gorm.DB) error {
		if err := lockForSeeding(tx, s.db.Postgres); err != nil {
			return err
		}
		for _, sd := range seeds {
			if err := s.seedOne(tx, sd); err != nil {
				return fmt.Errorf("content: importing %s: %w", sd.Key, err)
			}
		}
		return nil
	})
}

func (s *Store) seedOne(tx *gorm.DB, sd seed) error {
	hash := sd.hash()
	now := s.now().UTC()
	var row itemRow
	err := tx.Where("seed_key = ?", sd.Key).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		// Staff may have made an item of this address before the file came.
		err = tx.Where("type = ? AND slug = ?", sd.Type, sd.Draft.Slug).Take(&row).Error
		if err == nil {
			row.StaffEdited = true
		}
	}
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		row = itemRow{Type: sd.Type, Slug: sd.Draft.Slug, State: StatePublished, SeedKey: sd.Key, SeedHash: hash, CreatedAt: now, UpdatedAt: now, PublishedAt: &now}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		rev, err := s.newRevision(tx, row.ID, sd.Type, sd.Draft, RepositoryAuthor, now)
		if err != nil {
			return err
		}
		return tx.Model(&itemRow{}).Where("id = ?", row.ID).Updates(map[string]any{"latest_revision_id": rev.ID, "published_revision_id": rev.ID}).Error
	case err != nil:
		return err
	case row.SeedHash == hash:
		return nil
	}
	rev, err := s.newRevision(tx, row.ID, sd.Type, sd.Draft, RepositoryAuthor, now)
	if err != nil {
		return err
	}
	u := map[string]any{"seed_key": sd.Key, "seed_hash": hash}
	if row.StaffEdited {
		u["pending_revision_id"] = rev.ID // shown beside the staff's text, not over it
	} else {
		u["latest_revision_id"] = rev.ID
		u["updated_at"] = now
		if row.State == StatePublished {
			u["published_revision_id"] = rev.ID
		}
	}
	return tx.Model(&itemRow{}).Where("id = ?", row.ID).Updates(u).Error
}

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Parse splits an article into its front matter and body. The front matter
// is the block between two "---" lines at the top, one "key: value" per
// line; a value may be wrapped in double quotes.
func Parse(src []byte) (Article, error) {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	rest, ok := bytes.CutPrefix(src, []byte("---\n"))
	if !ok {
		return Article{}, fmt.Errorf("no front matter (the file must start with ---)")
	}
	head, body, ok := bytes.Cut(rest, []byte("\n---\n"))
	if !ok {
		return Article{}, fmt.Errorf("front matter is not closed with ---")
	}
	fields := map[string]string{}
	for _, line := range strings.Split(string(head), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return Article{}, fmt.Errorf("front matter line %q is not key: value", line)
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
			v = v[1 : len(v)-1]
		}
		fields[strings.TrimSpace(k)] = v
	}
	a := Article{
		Summary: Summary{
			Slug:        fields["slug"],
			Title:       fields["title"],
			Description: fields["description"],
			Date:        fields["date"],
			Category:    fields["category"],
		},
		Body: strings.TrimSpace(string(body)) + "\n",
	}
	for k, v := range map[string]string{"slug": a.Slug, "title": a.Title, "description": a.Description, "date": a.Date, "category": a.Category} {
		if v == "" {
			return Article{}, fmt.Errorf("front matter has no %s", k)
		}
	}
	if !slugPattern.MatchString(a.Slug) {
		return Article{}, fmt.Errorf("slug %q is not lower-case words joined by hyphens", a.Slug)
	}
	if _, err := time.Parse(time.DateOnly, a.Date); err != nil {
		return Article{}, fmt.Errorf("date %q is not YYYY-MM-DD", a.Date)
	}
	if updated, ok := fields["updated"]; ok {
		if _, err := time.Parse(time.DateOnly, updated); err != nil {
			return Article{}, fmt.Errorf("updated %q is not YYYY-MM-DD", updated)
		}
		if updated < a.Date {
			return Article{}, fmt.Errorf("updated %s is before date %s", updated, a.Date)
		}
		a.Updated = updated
	}
	return a, nil
}

// SeedPaths lists the pages of the repository's articles and help
// categories (what a fresh store publishes), for tests and tools that need
// them without a database.
func SeedPaths() ([]string, error) {
	seeds, err := Seeds()
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, sd := range seeds {
		switch sd.Type {
		case TypeBlog, TypeHelp, TypeHelpCategory:
			paths = append(paths, PagePath(sd.Type, sd.Draft.Slug))
		}
	}
	return paths, nil
}
