package content

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// What visitors see: the published items' fields and lists, and the set of
// content pages that exist or are gone, kept in memory (live.go) and
// refreshed after every change (this edge's own, and other edges' through
// the purge fan-out: Refresh), reading only what changed; an article's
// HTML is read from the database when its page is rendered (the page cache
// keeps the result).

// Summary is a published article as lists show it.
type Summary struct {
	Slug          string `json:"slug"`
	Title         string `json:"title"`
	Description   string `json:"description"`
	Date          string `json:"date"`
	Updated       string `json:"updated,omitempty"`
	Category      string `json:"category"`
	CategoryTitle string `json:"categoryTitle,omitempty"`
}

// Modified is the day the article last changed: Updated, or Date.
func (s Summary) Modified() string {
	if s.Updated != "" {
		return s.Updated
	}
	return s.Date
}

// Article is a published (or previewed) article with its HTML.
type Article struct {
	Summary
	HTML string `json:"html"`
	// Body is the Markdown, for the spec's JSON endpoints.
	Body string `json:"body,omitempty"`
}

// Category is a help-centre category.
type Category struct {
	Slug        string `json:"slug"`
	Title       string `json:"title"`
	Description string `json:"description"`
	// Intro is the category page's introduction (plain text): what the
	// topic covers, in a few sentences.
	Intro string `json:"intro,omitempty"`
	// Changed is the day its title and introduction last changed: the
	// repository's day of categories.json while the text live is the
	// repository's, the day of the studio's change once staff's is.
	Changed  string `json:"-"`
	position int
}

// Policy is a policy page.
type Policy struct {
	Slug        string `json:"slug"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Date        string `json:"date"`
	HTML        string `json:"html"`
}

type publishedRow struct {
	ItemID    uint64
	Type      string
	Slug      string
	Fields    string
	Body      string
	HTML      string `gorm:"column:html"`
	Author    string
	UpdatedAt time.Time
}

func fieldsOf(raw string) map[string]string {
	f := map[string]string{}
	_ = json.Unmarshal([]byte(raw), &f)
	return f
}

func summaryOf(slug string, f map[string]string) Summary {
	return Summary{Slug: slug, Title: f["title"], Description: f["description"], Date: f["date"], Updated: f["updated"], Category: f["category"]}
}

// published reads the live revisions of typ (slug "" for all), with or
// without their bodies.
func (s *Store) published(ctx context.Context, typ, slug string, withBody bool) ([]publishedRow, error) {
	cols := "i.id AS item_id, i.type, i.slug, r.fields, r.author, i.updated_at"
	if withBody {
		cols += ", r.body, r.html"
	}
	q := s.db.WithContext(ctx).Table("content_items i").Select(cols).
		Joins("JOIN content_revisions r ON r.id = i.published_revision_id").
		Where("i.type = ? AND i.state IN ?", typ, []string{StatePublished, StateScheduled})
	if slug != "" {
		q = q.Where("i.slug = ?", slug)
	}
	var rows []publishedRow
	return rows, q.Scan(&rows).Error
}

// Articles lists the published articles of typ (blog or help), newest
// first (then by title), help articles with their category's title.
//
// The list is kept in memory between changes (live.go) and shared: callers
// must not change its elements.
func (s *Store) Articles(ctx context.Context, typ string) ([]Summary, error) {
	ps, err := s.live(ctx)
	if err != nil {
		return nil, err
	}
	return ps.lists.articles[typ], nil
}

// CategoryArticles lists the published help articles of the category slug,
// newest first (shared, as Articles').
func (s *Store) CategoryArticles(ctx context.Context, slug string) ([]Summary, error) {
	ps, err := s.live(ctx)
	if err != nil {
		return nil, err
	}
	return ps.lists.byCategory[slug], nil
}

// Categories lists the published help categories in their order.
func (s *Store) Categories(ctx context.Context) ([]Category, error) {
	ps, err := s.live(ctx)
	if err != nil {
		return nil, err
	}
	return ps.lists.categories, nil
}

// Article returns the published article of typ with slug (ok false when
// there is none).
func (s *Store) Article(ctx context.Context, typ, slug string) (Article, bool, error) {
	rows, err := s.published(ctx, typ, slug, true)
	if err != nil || len(rows) == 0 {
		return Article{}, false, err
	}
	r := rows[0]
	a := Article{Summary: summaryOf(r.Slug, fieldsOf(r.Fields)), HTML: r.HTML, Body: r.Body}
	if typ == TypeHelp {
		if c, ok, err := s.category(ctx, a.Category); err == nil && ok {
			a.CategoryTitle = c.Title
		}
	}
	return a, true, nil
}

func (s *Store) category(ctx context.Context, slug string) (Category, bool, error) {
	cats, err := s.Categories(ctx)
	for _, c := range cats {
		if c.Slug == slug {
			return c, true, err
		}
	}
	return Category{}, false, err
}

// categoryOf is a live category: its fields, and the day its page last
// changed: the repository's day of categories.json while the repository's
// text is live, else the day staff's text was written.
func categoryOf(slug string, f map[string]string, author string, written time.Time) Category {
	pos, _ := strconv.Atoi(f["position"])
	c := Category{Slug: slug, Title: f["title"], Description: f["description"], Intro: f["intro"], position: pos, Changed: categoriesDay()}
	if author != RepositoryAuthor && !written.IsZero() {
		c.Changed = written.UTC().Format(time.DateOnly)
	}
	return c
}

// pageSet is which content pages exist (published) and which are gone
// (unpublished: 410), by path.
type pageSet struct {
	live map[string]bool
	gone map[string]bool
	// paths are the live pages with a parameter, sorted (sitemap, warming).
	paths []string
	// redirects are the live redirects by source path.
	redirects map[string]redirect
	// links are the live campaign short links (/go/<name>), by name.
	links   []CampaignLink
	version uint64

	// index is what the last Refresh read of every item (live.go): the
	// next one compares with it.
	index map[uint64]indexRow
	items map[uint64]*liveItem
	lists *liveLists
}

// CampaignLink is a published campaign short link: /go/<Name> answers a
// redirect to Target, counting a click of its campaign.
type CampaignLink struct {
	Name, Target             string
	Source, Medium, Campaign string
}

type redirect struct {
	target string
	status int
}

// Refresh reloads the set of content pages from the database: what
// changed since the last Refresh (live.go). When nothing did, the version
// stays and nothing is rebuilt.
func (s *Store) Refresh(ctx context.Context) error {
	s.refreshing.Lock()
	defer s.refreshing.Unlock()
	rows, err := s.readIndex(ctx)
	if err != nil {
		return err
	}
	old := s.pages.Load()
	if old != nil && sameIndex(old.index, rows) {
		return nil
	}
	ps, err := s.makePageSet(ctx, rows, old)
	if err != nil {
		return err
	}
	ps.version = s.version.Add(1)
	s.pages.Store(ps)
	s.mu.Lock()
	after := append([]func(){}, s.afterRefresh...)
	s.mu.Unlock()
	for _, fn := range after {
		fn()
	}
	return nil
}

// sameIndex reports rows as index read them.
func sameIndex(index map[uint64]indexRow, rows []indexRow) bool {
	if len(index) != len(rows) {
		return false
	}
	for _, r := range rows {
		o, ok := index[r.ID]
		if !ok || o.Type != r.Type || o.Slug != r.Slug || o.State != r.State || !sameRev(o.PublishedRevisionID, r.PublishedRevisionID) {
			return false
		}
	}
	return true
}

func sameRev(a, b *uint64) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

// makePageSet is the page set of rows, its live items read again only
// where they changed since old (nil: all).
func (s *Store) makePageSet(ctx context.Context, rows []indexRow, old *pageSet) (*pageSet, error) {
	var oldItems map[uint64]*liveItem
	var oldLists *liveLists
	if old != nil {
		oldItems, oldLists = old.items, old.lists
	}
	items, dirty, err := s.loadLive(ctx, rows, oldItems)
	if err != nil {
		return nil, err
	}
	ps := &pageSet{live: map[string]bool{}, gone: map[string]bool{}, redirects: map[string]redirect{},
		index: make(map[uint64]indexRow, len(rows)), items: items, lists: deriveLists(items, dirty, oldLists)}
	same := old != nil && len(old.index) == len(rows)
	for _, r := range rows {
		ps.index[r.ID] = r
		if same {
			o, ok := old.index[r.ID]
			same = ok && o.Type == r.Type && o.Slug == r.Slug && o.isLive() == r.isLive() && o.State == r.State
		}
	}
	if same { // no page came or went: a new revision of a live one
		ps.live, ps.gone, ps.paths = old.live, old.gone, old.paths
	}
	for _, r := range rows {
		if same {
			break
		}
		switch r.Type {
		case TypeBlog, TypeHelp, TypeHelpCategory, TypePolicy:
		default:
			continue
		}
		p := PagePath(r.Type, r.Slug)
		if r.isLive() {
			ps.live[p] = true
			if r.Type != TypePolicy {
				ps.paths = append(ps.paths, p)
			}
		} else if r.State == StateUnpublished {
			ps.gone[p] = true
		}
	}
	if !same {
		sort.Strings(ps.paths)
	}
	for _, it := range items {
		switch it.typ {
		case TypeRedirect:
			status, _ := strconv.Atoi(it.fields["status"])
			ps.redirects[redirectKey(it.slug)] = redirect{target: it.fields["target"], status: status}
		case TypeCampaignLink:
			ps.links = append(ps.links, CampaignLink{Name: it.slug, Target: it.fields["target"],
				Source: it.fields["utmSource"], Medium: it.fields["utmMedium"], Campaign: it.fields["utmCampaign"]})
		}
	}
	sort.Slice(ps.links, func(i, j int) bool { return ps.links[i].Name < ps.links[j].Name })
	return ps, nil
}

// CampaignLinks are the live campaign short links, by name (empty before
// the first Refresh).
func (s *Store) CampaignLinks() []CampaignLink { return s.pageSet().links }

// AfterRefresh adds fn to the functions called each time the set of live
// pages, redirects and links is reloaded, on this edge.
func (s *Store) AfterRefresh(fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.afterRefresh = append(s.afterRefresh, fn)
}

// redirectKey is the one spelling under which a redirect's source is kept
// and looked up: lower case, without a trailing slash. Visitors and
// crawlers type /Pricing or /pricing/ for /pricing, and each such variant
// takes the redirect's one hop to its target (the address spellings of the
// route table's pages are Canonical's, in the page cache; a redirect's
// source is no page, so its spellings are answered here).
func redirectKey(p string) string {
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	return strings.ToLower(p)
}

// Version changes with every Refresh: what is built from the published
// items (the sitemap, the feeds) is rebuilt when it moved.
func (s *Store) Version() uint64 { return s.pageSet().version }

// Redirects answers the live redirects (301, 302 with the query kept, or
// 410 Gone) before the page cache; other requests go to next.
func (s *Store) Redirects(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			if rd, ok := s.pageSet().redirects[redirectKey(r.URL.Path)]; ok {
				if rd.status == http.StatusGone {
					next.ServeHTTP(&goneWriter{ResponseWriter: w}, r)
					return
				}
				target := rd.target
				if q := r.URL.RawQuery; q != "" {
					path, frag, hasFrag := strings.Cut(target, "#")
					target = path + "?" + q
					if hasFrag {
						target += "#" + frag
					}
				}
				http.Redirect(w, r, target, rd.status)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Store) pageSet() *pageSet {
	if ps := s.pages.Load(); ps != nil {
		return ps
	}
	return &pageSet{}
}

// IsPage reports a live content page at path (as of the last Refresh).
func (s *Store) IsPage(path string) bool { return s.pageSet().live[strings.TrimSuffix(path, "/")] }

// IsGone reports an unpublished content page at path: 410 Gone.
func (s *Store) IsGone(path string) bool {
	ps := s.pageSet()
	p := strings.TrimSuffix(path, "/")
	return ps.gone[p] && !ps.live[p]
}

// PagePaths lists the live articles' and help categories' pages, sorted.
func (s *Store) PagePaths() []string { return s.pageSet().paths }

// Policies lists the published policy pages, without their HTML.
func (s *Store) Policies(ctx context.Context) ([]Policy, error) {
	ps, err := s.live(ctx)
	if err != nil {
		return nil, err
	}
	return ps.lists.policies, nil
}
