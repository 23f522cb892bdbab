package content

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"time"
)

// The live set in memory: every published item's fields, and the lists
// made of them (each type's articles newest first, each help category's,
// the categories in their order), kept between changes. A change costs what
// changed: Refresh reads every item's id, state and published revision (a
// narrow row each, no text), then the fields of only the items whose
// published revision moved, and sorts again only the lists of the types
// that changed. It compares revisions, not clocks: another edge's clock (or
// a change committed late) cannot hide a change from it.

// indexRow is what Refresh reads of every item that is or was published.
type indexRow struct {
	ID                  uint64
	Type, Slug, State   string
	PublishedRevisionID *uint64
}

// liveItem is a live item as memory keeps it.
type liveItem struct {
	typ, slug string
	rev       uint64 // the published revision its fields are of
	fields    map[string]string
	author    string    // the revision's author ("repository" for a seed)
	written   time.Time // when the revision was made
}

// liveLists are the lists derived from the live items.
type liveLists struct {
	articles   map[string][]Summary // by type (blog, help), newest first
	byCategory map[string][]Summary // help articles by category slug, newest first
	categories []Category
	policies   []Policy
	// revs are the live articles' published revisions, by type and slug.
	revs map[string]map[string]uint64
}

// isLive reports a live row: published, or scheduled while an earlier
// revision is out.
func (r indexRow) isLive() bool {
	return (r.State == StatePublished || r.State == StateScheduled) && r.PublishedRevisionID != nil
}

// readIndex reads every item that is or was published, narrowly (scanned
// by hand: gorm's reflection was most of the read at 10,000 items).
func (s *Store) readIndex(ctx context.Context) ([]indexRow, error) {
	rs, err := s.db.WithContext(ctx).Table("content_items").Select("id, type, slug, state, published_revision_id").
		Where("state IN ? OR published_at IS NOT NULL", []string{StatePublished, StateScheduled, StateUnpublished}).Rows()
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var rows []indexRow
	for rs.Next() {
		var r indexRow
		var rev sql.NullInt64
		if err := rs.Scan(&r.ID, &r.Type, &r.Slug, &r.State, &rev); err != nil {
			return nil, err
		}
		if rev.Valid {
			id := uint64(rev.Int64)
			r.PublishedRevisionID = &id
		}
		rows = append(rows, r)
	}
	return rows, rs.Err()
}

// fieldsBatch bounds the ids of one query (SQLite's and PostgreSQL's
// parameter limits are far above it).
const fieldsBatch = 500

// revisionOf is what the live set keeps of a revision.
type revisionOf struct {
	fields  map[string]string
	author  string
	written time.Time
}

// revisionFields reads the fields, author and time of the revisions ids.
func (s *Store) revisionFields(ctx context.Context, ids []uint64) (map[uint64]revisionOf, error) {
	out := make(map[uint64]revisionOf, len(ids))
	for start := 0; start < len(ids); start += fieldsBatch {
		var rows []struct {
			ID        uint64
			Fields    string
			Author    string
			CreatedAt time.Time
		}
		if err := s.db.WithContext(ctx).Table("content_revisions").Select("id, fields, author, created_at").
			Where("id IN ?", ids[start:min(start+fieldsBatch, len(ids))]).Scan(&rows).Error; err != nil {
			return nil, err
		}
		for _, r := range rows {
			out[r.ID] = revisionOf{fieldsOf(r.Fields), r.Author, r.CreatedAt}
		}
	}
	return out, nil
}

// loadLive makes the live items of rows, reusing old's where their
// published revision did not move; dirty names the types whose live items
// changed (nil old: every type).
func (s *Store) loadLive(ctx context.Context, rows []indexRow, old map[uint64]*liveItem) (map[uint64]*liveItem, map[string]bool, error) {
	items := make(map[uint64]*liveItem, len(rows))
	dirty := map[string]bool{}
	var need []uint64
	for _, r := range rows {
		if !r.isLive() {
			continue
		}
		if o := old[r.ID]; o != nil && o.rev == *r.PublishedRevisionID && o.slug == r.Slug && o.typ == r.Type {
			items[r.ID] = o
			continue
		}
		items[r.ID] = &liveItem{typ: r.Type, slug: r.Slug, rev: *r.PublishedRevisionID}
		need = append(need, *r.PublishedRevisionID)
		dirty[r.Type] = true
	}
	for id, o := range old {
		if items[id] == nil {
			dirty[o.typ] = true
		}
	}
	if len(need) > 0 {
		fields, err := s.revisionFields(ctx, need)
		if err != nil {
			return nil, nil, err
		}
		for _, it := range items {
			if it.fields == nil {
				rev := fields[it.rev]
				it.fields, it.author, it.written = rev.fields, rev.author, rev.written
				if it.fields == nil {
					it.fields = map[string]string{}
				}
			}
		}
	}
	if old == nil {
		for _, t := range Types {
			dirty[t] = true
		}
	}
	return items, dirty, nil
}

// deriveLists makes the lists of items, taking from old those of the types
// that are not dirty.
func deriveLists(items map[uint64]*liveItem, dirty map[string]bool, old *liveLists) *liveLists {
	if old == nil {
		old = &liveLists{}
	}
	l := &liveLists{articles: map[string][]Summary{}, categories: old.categories, policies: old.policies, byCategory: old.byCategory}
	byType := map[string][]*liveItem{}
	for _, it := range items {
		if dirty[it.typ] || it.typ == TypeHelp && dirty[TypeHelpCategory] {
			byType[it.typ] = append(byType[it.typ], it)
		}
	}
	if dirty[TypeHelpCategory] {
		l.categories = make([]Category, 0, len(byType[TypeHelpCategory]))
		for _, it := range byType[TypeHelpCategory] {
			l.categories = append(l.categories, categoryOf(it.slug, it.fields, it.author, it.written))
		}
		slices.SortFunc(l.categories, func(a, b Category) int {
			return cmp.Or(cmp.Compare(a.position, b.position), cmp.Compare(a.Title, b.Title), cmp.Compare(a.Slug, b.Slug))
		})
	}
	if dirty[TypePolicy] {
		l.policies = make([]Policy, 0, len(byType[TypePolicy]))
		for _, it := range byType[TypePolicy] {
			f := it.fields
			l.policies = append(l.policies, Policy{Slug: it.slug, Title: f["title"], Description: f["description"], Date: f["date"]})
		}
		slices.SortFunc(l.policies, func(a, b Policy) int { return cmp.Compare(a.Slug, b.Slug) })
	}
	helpDirty := dirty[TypeHelp] || dirty[TypeHelpCategory]
	l.revs = map[string]map[string]uint64{}
	for _, typ := range []string{TypeBlog, TypeHelp} {
		if !dirty[typ] && (typ != TypeHelp || !helpDirty) {
			l.articles[typ], l.revs[typ] = old.articles[typ], old.revs[typ]
			continue
		}
		titles := map[string]string{}
		if typ == TypeHelp {
			for _, c := range l.categories {
				titles[c.Slug] = c.Title
			}
		}
		list := make([]Summary, 0, len(byType[typ]))
		revs := make(map[string]uint64, len(byType[typ]))
		for _, it := range byType[typ] {
			sm := summaryOf(it.slug, it.fields)
			sm.CategoryTitle = titles[sm.Category]
			list = append(list, sm)
			revs[it.slug] = it.rev
		}
		slices.SortFunc(list, newestFirst)
		l.articles[typ], l.revs[typ] = list, revs
	}
	if helpDirty {
		l.byCategory = map[string][]Summary{}
		for _, a := range l.articles[TypeHelp] { // in order: each category's list is too
			l.byCategory[a.Category] = append(l.byCategory[a.Category], a)
		}
	}
	return l
}

// newestFirst orders articles newest first, then by title, then by slug:
// one order for every edge and every request, so a list's pages neither
// repeat nor skip an article.
func newestFirst(a, b Summary) int {
	return cmp.Or(cmp.Compare(b.Date, a.Date), cmp.Compare(a.Title, b.Title), cmp.Compare(a.Slug, b.Slug))
}

// live is the live set as of the last Refresh; before the first, read now
// (and not kept: only Refresh keeps it).
func (s *Store) live(ctx context.Context) (*pageSet, error) {
	if ps := s.pages.Load(); ps != nil {
		return ps, nil
	}
	rows, err := s.readIndex(ctx)
	if err != nil {
		return nil, err
	}
	return s.makePageSet(ctx, rows, nil)
}

// Newest lists the n newest published articles of typ with their HTML
// (the feeds), read in one query.
func (s *Store) Newest(ctx context.Context, typ string, n int) ([]Article, error) {
	ps, err := s.live(ctx)
	if err != nil {
		return nil, err
	}
	list := ps.lists.articles[typ]
	list = list[:min(n, len(list))]
	ids := make([]uint64, 0, len(list))
	for _, a := range list {
		ids = append(ids, ps.lists.revs[typ][a.Slug])
	}
	var rows []struct {
		ID   uint64
		HTML string `gorm:"column:html"`
	}
	if len(ids) > 0 {
		if err := s.db.WithContext(ctx).Table("content_revisions").Select("id, html").Where("id IN ?", ids).Scan(&rows).Error; err != nil {
			return nil, err
		}
	}
	html := make(map[uint64]string, len(rows))
	for _, r := range rows {
		html[r.ID] = r.HTML
	}
	out := make([]Article, 0, len(list))
	for i, a := range list {
		out = append(out, Article{Summary: a, HTML: html[ids[i]]})
	}
	return out, nil
}
