package content

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gorm.io/gorm"

	"omnibus/edge/internal/storage"
)

// Store is the content store: items, their revisions, previews and the
// scheduler's lease, in the edge's database (docs/studio-api.md).
type Store struct {
	db   *storage.DB
	now  func() time.Time
	log  *slog.Logger
	card func(context.Context, CardText) string

	mu           sync.Mutex
	subs         []func(context.Context, Change)
	afterRefresh []func()

	// refreshing makes Refreshes take turns: one that read the database
	// before a change never stores its page set after one that read it
	// since (a purge's reload racing the change's own).
	refreshing sync.Mutex
	pages      atomic.Pointer[pageSet]
	version    atomic.Uint64
}

// Options configure New.
type Options struct {
	Now    func() time.Time
	Logger *slog.Logger
	// Card is the address of the preview card drawn for a content page's
	// words, or "" when none is (internal/ogcard's Lookup; nil: none).
	Card func(context.Context, CardText) string
}

// New makes the store on db (migrated: storage.Open runs the migrations).
func New(db *storage.DB, opts Options) *Store {
	s := &Store{db: db, now: opts.Now, log: opts.Logger, card: opts.Card}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	return s
}

// DB is the store's database.
func (s *Store) DB() *storage.DB { return s.db }

// Subscribe adds fn to the functions called after every committed change.
func (s *Store) Subscribe(fn func(context.Context, Change)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.subs = append(s.subs, fn)
}

func (s *Store) announce(ctx context.Context, chs ...Change) {
	s.mu.Lock()
	subs := append([]func(context.Context, Change){}, s.subs...)
	s.mu.Unlock()
	for _, ch := range chs {
		for _, fn := range subs {
			fn(ctx, ch)
		}
	}
}

// The rows (storage/migrate_0200_content.go).
type itemRow struct {
	ID                  uint64 `gorm:"primaryKey"`
	Type                string
	Slug                string
	State               string
	ScheduledAt         *time.Time
	ScheduledRevisionID *uint64
	LatestRevisionID    uint64
	PublishedRevisionID *uint64
	PendingRevisionID   *uint64
	SeedKey             string
	SeedHash            string
	StaffEdited         bool
	PublishedAt         *time.Time
	CreatedAt           time.Time
	UpdatedAt           time.Time
}

func (itemRow) TableName() string { return "content_items" }

type revisionRow struct {
	ID        uint64 `gorm:"primaryKey"`
	ItemID    uint64
	Number    int
	Slug      string
	Fields    string
	Body      string
	HTML      string `gorm:"column:html"`
	Author    string
	Note      string
	CreatedAt time.Time
}

func (revisionRow) TableName() string { return "content_revisions" }

type previewRow struct {
	ID        uint64 `gorm:"primaryKey"`
	ItemID    uint64
	TokenHash string
	CreatedBy string
	CreatedAt time.Time
	ExpiresAt time.Time
	RevokedAt *time.Time
}

func (previewRow) TableName() string { return "content_previews" }

func (r revisionRow) revision(withHTML bool) *Revision {
	rev := &Revision{ID: r.ID, ItemID: r.ItemID, Number: r.Number, Slug: r.Slug, Body: r.Body, Author: r.Author, Note: r.Note, CreatedAt: r.CreatedAt.UTC()}
	if withHTML {
		rev.HTML = r.HTML
	}
	_ = json.Unmarshal([]byte(r.Fields), &rev.Fields)
	if rev.Fields == nil {
		rev.Fields = map[string]string{}
	}
	return rev
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// item assembles the API's Item from a row, reading its revisions.
func (s *Store) item(tx *gorm.DB, row itemRow, withBody bool) (Item, error) {
	it := Item{
		ID: row.ID, Type: row.Type, Slug: row.Slug, State: row.State,
		ScheduledAt: utcPtr(row.ScheduledAt), ScheduledRevisionID: row.ScheduledRevisionID,
		PublishedAt: utcPtr(row.PublishedAt), Path: PagePath(row.Type, row.Slug),
		PublishedRevisionID: row.PublishedRevisionID, CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(),
	}
	it.Changed = row.PublishedRevisionID == nil || *row.PublishedRevisionID != row.LatestRevisionID
	ids := []uint64{row.LatestRevisionID}
	if row.PendingRevisionID != nil {
		ids = append(ids, *row.PendingRevisionID)
	}
	var revs []revisionRow
	if err := tx.Where("id IN ?", ids).Find(&revs).Error; err != nil {
		return Item{}, err
	}
	for _, r := range revs {
		rev := r.revision(withBody)
		if !withBody {
			rev.Body = ""
		}
		if r.ID == row.LatestRevisionID {
			it.Revision = rev
		}
		if row.PendingRevisionID != nil && r.ID == *row.PendingRevisionID {
			it.PendingRepository = rev
		}
	}
	return it, nil
}

func (s *Store) findItem(tx *gorm.DB, id uint64) (itemRow, error) {
	var row itemRow
	err := tx.Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return row, notFoundError{"item"}
	}
	return row, err
}

// Get returns an item with its latest revision (body and HTML included).
func (s *Store) Get(ctx context.Context, id uint64) (Item, error) {
	db := s.db.WithContext(ctx)
	row, err := s.findItem(db, id)
	if err != nil {
		return Item{}, err
	}
	return s.item(db, row, true)
}

// Filter narrows List.
type Filter struct {
	Type, State, Author, Query string
	Limit                      int
	// After is the cursor of the previous page (List's next).
	After string
}

// List returns items, most recently changed first, without their bodies,
// and the cursor of the next page ("" at the end).
func (s *Store) List(ctx context.Context, f Filter) ([]Item, string, error) {
	if f.Limit <= 0 || f.Limit > 200 {
		f.Limit = 50
	}
	db := s.db.WithContext(ctx)
	q := db.Model(&itemRow{})
	if f.Type != "" {
		q = q.Where("content_items.type = ?", f.Type)
	}
	if f.State != "" {
		q = q.Where("content_items.state = ?", f.State)
	}
	if f.Author != "" || f.Query != "" {
		q = q.Joins("JOIN content_revisions r ON r.id = content_items.latest_revision_id")
		if f.Author != "" {
			q = q.Where("r.author = ?", f.Author)
		}
		if f.Query != "" {
			like := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(strings.ToLower(f.Query)) + "%"
			q = q.Where(`(lower(content_items.slug) LIKE ? ESCAPE '\' OR lower(r.fields) LIKE ? ESCAPE '\')`, like, like)
		}
	}
	if f.After != "" {
		at, id, ok := parseCursor(f.After)
		if !ok {
			return nil, "", FieldErrors{"after": "This is not a page of the list."}
		}
		q = q.Where("(content_items.updated_at < ? OR (content_items.updated_at = ? AND content_items.id < ?))", at, at, id)
	}
	var rows []itemRow
	if err := q.Select("content_items.*").Order("content_items.updated_at DESC, content_items.id DESC").Limit(f.Limit + 1).Find(&rows).Error; err != nil {
		return nil, "", err
	}
	next := ""
	if len(rows) > f.Limit {
		rows = rows[:f.Limit]
		last := rows[len(rows)-1]
		next = fmt.Sprintf("%d.%d", last.UpdatedAt.UnixNano(), last.ID)
	}
	items := make([]Item, 0, len(rows))
	for _, r := range rows {
		it, err := s.item(db, r, false)
		if err != nil {
			return nil, "", err
		}
		items = append(items, it)
	}
	return items, next, nil
}

func parseCursor(c string) (time.Time, uint64, bool) {
	var ns int64
	var id uint64
	if _, err := fmt.Sscanf(c, "%d.%d", &ns, &id); err != nil {
		return time.Time{}, 0, false
	}
	return time.Unix(0, ns), id, true
}

// transact runs fn in a transaction and, once committed, announces its
// changes.
func (s *Store) transact(ctx context.Context, fn func(tx *gorm.DB) ([]Change, error)) error {
	var changes []Change
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		changes, err = fn(tx)
		return err
	})
	if err != nil {
		return err
	}
	s.announce(ctx, changes...)
	return nil
}

// newRevision renders and inserts the next revision of an item.
func (s *Store) newRevision(tx *gorm.DB, itemID uint64, typ string, d Draft, author string, now time.Time) (revisionRow, error) {
	html := ""
	if Specs[typ].Body {
		var err error
		if html, err = Render(d.Body); err != nil {
			return revisionRow{}, err
		}
	}
	var last struct{ N int }
	if err := tx.Raw("SELECT coalesce(max(number), 0) AS n FROM content_revisions WHERE item_id = ?", itemID).Scan(&last).Error; err != nil {
		return revisionRow{}, err
	}
	r := revisionRow{ItemID: itemID, Number: last.N + 1, Slug: d.Slug, Fields: fieldsJSON(d.Fields), Body: d.Body, HTML: html, Author: author, Note: d.Note, CreatedAt: now}
	return r, tx.Create(&r).Error
}

// Create makes a new item of typ from d, as a draft with its first revision.
func (s *Store) Create(ctx context.Context, typ, author string, d Draft) (Item, error) {
	if _, ok := Specs[typ]; !ok {
		return Item{}, FieldErrors{"type": "Choose one of the content types."}
	}
	var out Item
	err := s.transact(ctx, func(tx *gorm.DB) ([]Change, error) {
		d, ferr := s.validate(tx, typ, 0, d)
		if ferr != nil {
			return nil, ferr
		}
		now := s.now().UTC()
		row := itemRow{Type: typ, Slug: d.Slug, State: StateDraft, CreatedAt: now, UpdatedAt: now, StaffEdited: true}
		if err := tx.Create(&row).Error; err != nil {
			return nil, err
		}
		rev, err := s.newRevision(tx, row.ID, typ, d, author, now)
		if err != nil {
			return nil, err
		}
		row.LatestRevisionID = rev.ID
		if err := tx.Model(&row).Update("latest_revision_id", rev.ID).Error; err != nil {
			return nil, err
		}
		out, err = s.item(tx, row, true)
		return []Change{{Type: typ, ID: row.ID, Slug: row.Slug, State: row.State}}, err
	})
	return out, err
}

// claim is the compare-and-set every change based on a revision starts
// with: it touches the item only while base is still its latest revision,
// holding the row (PostgreSQL) or the database (SQLite) until the
// transaction ends, so of two saves from the same revision one wins and the
// other gets a ConflictError with the winner's text.
func (s *Store) claim(tx *gorm.DB, id, base uint64) (itemRow, error) {
	res := tx.Model(&itemRow{}).Where("id = ? AND latest_revision_id = ?", id, base).Update("updated_at", s.now().UTC())
	if res.Error != nil {
		return itemRow{}, res.Error
	}
	row, err := s.findItem(tx, id)
	if err != nil {
		return row, err
	}
	if res.RowsAffected == 0 {
		cur, err := s.item(tx, row, true)
		if err != nil {
			return row, err
		}
		return row, &ConflictError{Current: cur}
	}
	return row, nil
}

// Save stores d as the item's next revision, if base is its latest
// revision (else a ConflictError with the current item). Saving never
// changes what is live.
func (s *Store) Save(ctx context.Context, id, base uint64, author string, d Draft) (Item, error) {
	var out Item
	err := s.transact(ctx, func(tx *gorm.DB) ([]Change, error) {
		row, err := s.claim(tx, id, base)
		if err != nil {
			return nil, err
		}
		d, ferr := s.validate(tx, row.Type, row.ID, d)
		if ferr != nil {
			return nil, ferr
		}
		now := s.now().UTC()
		rev, err := s.newRevision(tx, row.ID, row.Type, d, author, now)
		if err != nil {
			return nil, err
		}
		updates := map[string]any{"latest_revision_id": rev.ID, "updated_at": now, "staff_edited": true}
		if row.PublishedRevisionID == nil && row.State != StateUnpublished {
			updates["slug"] = d.Slug // nothing live: the item is known by its draft's slug
		}
		if err := tx.Model(&itemRow{}).Where("id = ?", row.ID).Updates(updates).Error; err != nil {
			return nil, err
		}
		row, err = s.findItem(tx, row.ID)
		if err != nil {
			return nil, err
		}
		out, err = s.item(tx, row, true)
		return []Change{{Type: row.Type, ID: row.ID, Slug: row.Slug, State: row.State}}, err
	})
	return out, err
}

// Publish makes revision rev (which must be the latest) live now.
func (s *Store) Publish(ctx context.Context, id, rev uint64, author string) (Item, error) {
	var out Item
	err := s.transact(ctx, func(tx *gorm.DB) ([]Change, error) {
		row, err := s.claim(tx, id, rev)
		if err != nil {
			return nil, err
		}
		ch, err := s.publish(tx, row, rev)
		if err != nil {
			return nil, err
		}
		row, err = s.findItem(tx, id)
		if err != nil {
			return nil, err
		}
		out, err = s.item(tx, row, true)
		return ch, err
	})
	return out, err
}

// publish makes revision rev of row live, in tx: it checks the revision
// again (a category or target may have gone since it was saved), keeps a
// renamed page's old address as a 301, and returns the changes.
func (s *Store) publish(tx *gorm.DB, row itemRow, rev uint64) ([]Change, error) {
	var r revisionRow
	if err := tx.Where("id = ? AND item_id = ?", rev, row.ID).Take(&r).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, notFoundError{"revision"}
		}
		return nil, err
	}
	d := Draft{Slug: r.Slug, Body: r.Body, Fields: r.revision(false).Fields}
	if _, ferr := s.validate(tx, row.Type, row.ID, d); ferr != nil {
		return nil, ferr
	}
	now := s.now().UTC()
	oldSlug := ""
	if row.Slug != r.Slug && (row.State == StatePublished || row.PublishedAt != nil) {
		oldSlug = row.Slug
	}
	updates := map[string]any{
		"state": StatePublished, "published_revision_id": rev, "slug": r.Slug,
		"scheduled_at": nil, "scheduled_revision_id": nil, "updated_at": now,
	}
	if row.PublishedAt == nil {
		updates["published_at"] = now
	}
	if err := tx.Model(&itemRow{}).Where("id = ?", row.ID).Updates(updates).Error; err != nil {
		return nil, err
	}
	changes := []Change{{Type: row.Type, ID: row.ID, Slug: r.Slug, OldSlug: oldSlug, State: StatePublished, Live: true,
		Paths: affected(row.Type, []string{r.Slug, oldSlug}, s.extraPaths(tx, row.Type, row.ID, d)...)}}
	if oldSlug != "" && PagePath(row.Type, oldSlug) != "" && row.Type != TypeRedirect && row.Type != TypeCampaignLink {
		ch, err := s.keepOldAddress(tx, PagePath(row.Type, oldSlug), PagePath(row.Type, r.Slug), now)
		if err != nil {
			return nil, err
		}
		changes = append(changes, ch...)
	}
	return changes, nil
}

// extraPaths are pages a change alters besides the type's usual ones: a
// help article's category pages (old and new).
func (s *Store) extraPaths(tx *gorm.DB, typ string, id uint64, d Draft) []string {
	if typ != TypeHelp {
		return nil
	}
	paths := []string{PagePath(TypeHelpCategory, d.Fields["category"])}
	var r revisionRow
	if tx.Raw(`SELECT r.* FROM content_revisions r JOIN content_items i ON i.published_revision_id = r.id WHERE i.id = ?`, id).Scan(&r).Error == nil && r.ID != 0 {
		if c := r.revision(false).Fields["category"]; c != "" && c != d.Fields["category"] {
			paths = append(paths, PagePath(TypeHelpCategory, c))
		}
	}
	return paths
}

// keepOldAddress publishes a 301 from a renamed page's old address to its
// new one, and points every redirect to the old address at the new one (no
// chain). A redirect item for the new address is taken down (no loop).
func (s *Store) keepOldAddress(tx *gorm.DB, from, to string, now time.Time) ([]Change, error) {
	var changes []Change
	set := func(row itemRow, d Draft, state string) error {
		rev, err := s.newRevision(tx, row.ID, TypeRedirect, d, SystemAuthor, now)
		if err != nil {
			return err
		}
		u := map[string]any{"latest_revision_id": rev.ID, "updated_at": now, "state": state, "scheduled_at": nil, "scheduled_revision_id": nil}
		if state == StatePublished {
			u["published_revision_id"] = rev.ID
			if row.PublishedAt == nil {
				u["published_at"] = now
			}
		} else {
			u["published_revision_id"] = nil
		}
		if err := tx.Model(&itemRow{}).Where("id = ?", row.ID).Updates(u).Error; err != nil {
			return err
		}
		changes = append(changes, Change{Type: TypeRedirect, ID: row.ID, Slug: row.Slug, State: state, Live: true, Paths: []string{row.Slug}})
		return nil
	}
	// Redirects that lead to the old address now lead to the new one; one
	// from the new address would loop and goes.
	var redirects []itemRow
	if err := tx.Where("type = ? AND state = ?", TypeRedirect, StatePublished).Find(&redirects).Error; err != nil {
		return nil, err
	}
	for _, rd := range redirects {
		var r revisionRow
		if err := tx.Where("id = ?", *rd.PublishedRevisionID).Take(&r).Error; err != nil {
			return nil, err
		}
		f := r.revision(false).Fields
		target, _, _ := strings.Cut(f["target"], "#")
		switch {
		case rd.Slug == to:
			if err := set(rd, Draft{Slug: rd.Slug, Fields: f, Note: "The page " + to + " is back"}, StateUnpublished); err != nil {
				return nil, err
			}
		case target == from:
			f["target"] = to
			if err := set(rd, Draft{Slug: rd.Slug, Fields: f, Note: from + " moved to " + to}, StatePublished); err != nil {
				return nil, err
			}
		}
	}
	var existing itemRow
	err := tx.Where("type = ? AND slug = ?", TypeRedirect, from).Take(&existing).Error
	d := Draft{Slug: from, Fields: map[string]string{"target": to, "status": "301"}, Note: "Renamed to " + to}
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		row := itemRow{Type: TypeRedirect, Slug: from, State: StatePublished, CreatedAt: now, UpdatedAt: now}
		if err := tx.Create(&row).Error; err != nil {
			return nil, err
		}
		if err := set(row, d, StatePublished); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	default:
		if err := set(existing, d, StatePublished); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

// Schedule has revision rev (the latest) published at `at`, by whichever
// edge holds the scheduler's lease then.
func (s *Store) Schedule(ctx context.Context, id, rev uint64, at time.Time) (Item, error) {
	if !at.After(s.now()) {
		return Item{}, FieldErrors{"at": "Choose a time in the future."}
	}
	var out Item
	err := s.transact(ctx, func(tx *gorm.DB) ([]Change, error) {
		row, err := s.claim(tx, id, rev)
		if err != nil {
			return nil, err
		}
		var r revisionRow
		if err := tx.Where("id = ?", rev).Take(&r).Error; err != nil {
			return nil, err
		}
		if _, ferr := s.validate(tx, row.Type, row.ID, Draft{Slug: r.Slug, Body: r.Body, Fields: r.revision(false).Fields}); ferr != nil {
			return nil, ferr
		}
		at := at.UTC()
		if err := tx.Model(&itemRow{}).Where("id = ?", id).Updates(map[string]any{"state": StateScheduled, "scheduled_at": at, "scheduled_revision_id": rev}).Error; err != nil {
			return nil, err
		}
		row, err = s.findItem(tx, id)
		if err != nil {
			return nil, err
		}
		out, err = s.item(tx, row, true)
		return []Change{{Type: row.Type, ID: id, Slug: row.Slug, State: StateScheduled}}, err
	})
	return out, err
}

// restingState is an item's state without its schedule.
func restingState(row itemRow) string {
	switch {
	case row.PublishedRevisionID != nil:
		return StatePublished
	case row.PublishedAt != nil:
		return StateUnpublished
	}
	return StateDraft
}

// Unschedule cancels a scheduled publication.
func (s *Store) Unschedule(ctx context.Context, id uint64) (Item, error) {
	var out Item
	err := s.transact(ctx, func(tx *gorm.DB) ([]Change, error) {
		row, err := s.findItem(tx, id)
		if err != nil {
			return nil, err
		}
		state := restingState(row)
		if err := tx.Model(&itemRow{}).Where("id = ?", id).Updates(map[string]any{"state": state, "scheduled_at": nil, "scheduled_revision_id": nil, "updated_at": s.now().UTC()}).Error; err != nil {
			return nil, err
		}
		row, err = s.findItem(tx, id)
		if err != nil {
			return nil, err
		}
		out, err = s.item(tx, row, true)
		return []Change{{Type: row.Type, ID: id, Slug: row.Slug, State: state}}, err
	})
	return out, err
}

// Unpublish takes the item down: its page answers 410 Gone.
func (s *Store) Unpublish(ctx context.Context, id uint64) (Item, error) {
	var out Item
	err := s.transact(ctx, func(tx *gorm.DB) ([]Change, error) {
		row, err := s.findItem(tx, id)
		if err != nil {
			return nil, err
		}
		var ex []string
		if row.PublishedRevisionID != nil {
			var r revisionRow
			if err := tx.Where("id = ?", *row.PublishedRevisionID).Take(&r).Error; err != nil {
				return nil, err
			}
			ex = s.extraPaths(tx, row.Type, row.ID, Draft{Fields: r.revision(false).Fields})
		}
		now := s.now().UTC()
		u := map[string]any{"state": StateUnpublished, "published_revision_id": nil, "scheduled_at": nil, "scheduled_revision_id": nil, "updated_at": now}
		if row.PublishedAt == nil {
			u["published_at"] = now // it answers 410 from now on, not 404
		}
		if err := tx.Model(&itemRow{}).Where("id = ?", id).Updates(u).Error; err != nil {
			return nil, err
		}
		row, err = s.findItem(tx, id)
		if err != nil {
			return nil, err
		}
		out, err = s.item(tx, row, true)
		return []Change{{Type: row.Type, ID: id, Slug: row.Slug, State: StateUnpublished, Live: true, Paths: affected(row.Type, []string{row.Slug}, ex...)}}, err
	})
	return out, err
}

// Rollback makes a new latest revision copying revision to (its slug,
// fields and body), if base is the latest. It publishes nothing.
func (s *Store) Rollback(ctx context.Context, id, to, base uint64, author string) (Item, error) {
	var out Item
	err := s.transact(ctx, func(tx *gorm.DB) ([]Change, error) {
		var r revisionRow
		if err := tx.Where("id = ? AND item_id = ?", to, id).Take(&r).Error; err != nil {
			if errors.Is(err, gorm.ErrRecordNotFound) {
				return nil, notFoundError{"revision"}
			}
			return nil, err
		}
		row, err := s.claim(tx, id, base)
		if err != nil {
			return nil, err
		}
		now := s.now().UTC()
		d := Draft{Slug: r.Slug, Fields: r.revision(false).Fields, Body: r.Body, Note: fmt.Sprintf("Rolled back to revision %d", r.Number)}
		rev, err := s.newRevision(tx, id, row.Type, d, author, now)
		if err != nil {
			return nil, err
		}
		u := map[string]any{"latest_revision_id": rev.ID, "updated_at": now, "staff_edited": true}
		if row.PendingRevisionID != nil && *row.PendingRevisionID == to {
			u["pending_revision_id"] = nil // the repository's text is taken
		}
		if row.PublishedRevisionID == nil && row.State != StateUnpublished {
			u["slug"] = d.Slug
		}
		if err := tx.Model(&itemRow{}).Where("id = ?", id).Updates(u).Error; err != nil {
			return nil, err
		}
		row, err = s.findItem(tx, id)
		if err != nil {
			return nil, err
		}
		out, err = s.item(tx, row, true)
		return []Change{{Type: row.Type, ID: id, Slug: row.Slug, State: row.State}}, err
	})
	return out, err
}

// Revisions lists an item's revisions, newest first, without their HTML.
func (s *Store) Revisions(ctx context.Context, id uint64) ([]Revision, error) {
	db := s.db.WithContext(ctx)
	if _, err := s.findItem(db, id); err != nil {
		return nil, err
	}
	var rows []revisionRow
	if err := db.Where("item_id = ?", id).Order("number DESC").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]Revision, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r.revision(false))
	}
	return out, nil
}

// Revision returns one revision of an item.
func (s *Store) Revision(ctx context.Context, id, rev uint64) (Revision, error) {
	var r revisionRow
	err := s.db.WithContext(ctx).Where("id = ? AND item_id = ?", rev, id).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Revision{}, notFoundError{"revision"}
	}
	if err != nil {
		return Revision{}, err
	}
	return *r.revision(true), nil
}

// Preview is a share-preview link (its token is shown once, in URL).
type Preview struct {
	ID        uint64     `json:"id"`
	ItemID    uint64     `json:"itemId"`
	CreatedBy string     `json:"createdBy"`
	CreatedAt time.Time  `json:"createdAt"`
	ExpiresAt time.Time  `json:"expiresAt"`
	RevokedAt *time.Time `json:"revokedAt"`
	URL       string     `json:"url,omitempty"`
}

func (p previewRow) preview() Preview {
	return Preview{ID: p.ID, ItemID: p.ItemID, CreatedBy: p.CreatedBy, CreatedAt: p.CreatedAt.UTC(), ExpiresAt: p.ExpiresAt.UTC(), RevokedAt: utcPtr(p.RevokedAt)}
}

// PreviewPrefix is where preview links live: PreviewPrefix + token.
const PreviewPrefix = "/preview/"

// DefaultPreviewDays is how long a preview link works unless asked otherwise.
const DefaultPreviewDays = 7

func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// CreatePreview makes a share-preview link of the item valid for days days.
// Only the token's hash is stored; Preview.URL is the path with the token.
func (s *Store) CreatePreview(ctx context.Context, id uint64, by string, days int) (Preview, error) {
	if days == 0 {
		days = DefaultPreviewDays
	}
	if days < 1 || days > 30 {
		return Preview{}, FieldErrors{"days": "A preview link lasts 1 to 30 days."}
	}
	db := s.db.WithContext(ctx)
	if _, err := s.findItem(db, id); err != nil {
		return Preview{}, err
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return Preview{}, err
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	now := s.now().UTC()
	row := previewRow{ItemID: id, TokenHash: tokenHash(token), CreatedBy: by, CreatedAt: now, ExpiresAt: now.Add(time.Duration(days) * 24 * time.Hour)}
	if err := db.Create(&row).Error; err != nil {
		return Preview{}, err
	}
	p := row.preview()
	p.URL = PreviewPrefix + token
	return p, nil
}

// Previews lists an item's preview links, newest first.
func (s *Store) Previews(ctx context.Context, id uint64) ([]Preview, error) {
	var rows []previewRow
	if err := s.db.WithContext(ctx).Where("item_id = ?", id).Order("id DESC").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]Preview, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.preview())
	}
	return out, nil
}

// RevokePreview ends a preview link now.
func (s *Store) RevokePreview(ctx context.Context, id, previewID uint64) (Preview, error) {
	db := s.db.WithContext(ctx)
	var row previewRow
	if err := db.Where("id = ? AND item_id = ?", previewID, id).Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return Preview{}, notFoundError{"preview"}
		}
		return Preview{}, err
	}
	if row.RevokedAt == nil {
		now := s.now().UTC()
		row.RevokedAt = &now
		if err := db.Model(&row).Update("revoked_at", now).Error; err != nil {
			return Preview{}, err
		}
	}
	return row.preview(), nil
}

// OpenPreview returns the item a valid preview token shows, with its latest
// revision, and the link's expiry; IsNotFound for an unknown, expired or
// revoked token.
func (s *Store) OpenPreview(ctx context.Context, token string) (Item, time.Time, error) {
	if len(token) != 43 {
		return Item{}, time.Time{}, notFoundError{"preview"}
	}
	db := s.db.WithContext(ctx)
	var p previewRow
	err := db.Where("token_hash = ? AND revoked_at IS NULL AND expires_at > ?", tokenHash(token), s.now().UTC()).Take(&p).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Item{}, time.Time{}, notFoundError{"preview"}
	}
	if err != nil {
		return Item{}, time.Time{}, err
	}
	it, err := s.Get(ctx, p.ItemID)
	return it, p.ExpiresAt.UTC(), err
}

// lockForSeeding serialises the seed import of edges starting together.
func lockForSeeding(tx *gorm.DB, postgres bool) error {
	if !postgres {
		return nil // SQLite: the transaction holds the write lock (_txlock=immediate)
	}
	return tx.Exec("SELECT pg_advisory_xact_lock(hashtext('omnibus.content.seed.' || coalesce(current_schema(), '')))").Error
}
