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

// What visitors see: the published items, read from the database when a
// page is rendered (the page cache keeps the result), and the set of
// content pages that exist or are gone, kept in memory for the page cache
// and the sitemap and refreshed after every change (this edge's own, and
// other edges' through the purge fan-out: Refresh).

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
// The list is read once per version of the live set (each Refresh, which
// every committed change causes on every edge) and shared: callers must not
// change its elements. A blog of 10,000 articles would otherwise be read
// and decoded for every page that lists some of them.
func (s *Store) Articles(ctx context.Context, typ string) ([]Summary, error) {
	v := s.pageSet().version
	s.mu.Lock()
	c := s.lists[typ]
	s.mu.Unlock()
	if v != 0 && c.version == v {
		return c.list, nil
	}
	list, err := s.readArticles(ctx, typ)
	if err == nil && v != 0 {
		s.mu.Lock()
		if s.lists == nil {
			s.lists = map[string]articleList{}
		}
		s.lists[typ] = articleList{version: v, list: list}
		s.mu.Unlock()
	}
	return list, err
}

// articleList is one type's list as read at a version of the live set.
type articleList struct {
	version uint64
	list    []Summary
}

func (s *Store) readArticles(ctx context.Context, typ string) ([]Summary, error) {
	rows, err := s.published(ctx, typ, "", false)
	if err != nil {
		return nil, err
	}
	var titles map[string]string
	if typ == TypeHelp {
		cats, err := s.Categories(ctx)
		if err != nil {
			return nil, err
		}
		titles = map[string]string{}
		for _, c := range cats {
			titles[c.Slug] = c.Title
		}
	}
	out := make([]Summary, 0, len(rows))
	for _, r := range rows {
		sm := summaryOf(r.Slug, fieldsOf(r.Fields))
		sm.CategoryTitle = titles[sm.Category]
		out = append(out, sm)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Date != b.Date {
			return a.Date > b.Date
		}
		return a.Title < b.Title
	})
	return out, nil
}

// Categories lists the published help categories in their order.
func (s *Store) Categories(ctx context.Context) ([]Category, error) {
	rows, err := s.published(ctx, TypeHelpCategory, "", false)
	if err != nil {
		return nil, err
	}
	out := make([]Category, 0, len(rows))
	for _, r := range rows {
		out = append(out, categoryOf(r))
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].position != out[j].position {
			return out[i].position < out[j].position
		}
		return out[i].Title < out[j].Title
	})
	return out, nil
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
	rows, err := s.published(ctx, TypeHelpCategory, slug, false)
	if err != nil || len(rows) == 0 {
		return Category{}, false, err
	}
	return categoryOf(rows[0]), true, nil
}

// categoryOf is the category a published row holds.
func categoryOf(r publishedRow) Category {
	f := fieldsOf(r.Fields)
	pos, _ := strconv.Atoi(f["position"])
	c := Category{Slug: r.Slug, Title: f["title"], Description: f["description"], Intro: f["intro"], position: pos, Changed: categoriesDay()}
	if r.Author != RepositoryAuthor {
		// The item's last change is at least the publishing of the text
		// live (a later draft saved moves it on, never back).
		c.Changed = r.UpdatedAt.UTC().Format(time.DateOnly)
	}
	return c
}

// Live is one live item: its type, slug and fields, and when it last changed.
type Live struct {
	Type, Slug string
	Fields     map[string]string
	UpdatedAt  time.Time
}

// LiveItems lists the live items of typ (redirects, campaign links).
func (s *Store) LiveItems(ctx context.Context, typ string) ([]Live, error) {
	rows, err := s.published(ctx, typ, "", false)
	if err != nil {
		return nil, err
	}
	out := make([]Live, 0, len(rows))
	for _, r := range rows {
		out = append(out, Live{Type: r.Type, Slug: r.Slug, Fields: fieldsOf(r.Fields), UpdatedAt: r.UpdatedAt})
	}
	return out, nil
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

// Refresh reloads the set of content pages from the database.
func (s *Store) Refresh(ctx context.Context) error {
	s.refreshing.Lock()
	defer s.refreshing.Unlock()
	var rows []struct {
		Type, Slug, State string
	}
	if err := s.db.WithContext(ctx).Table("content_items").Select("type, slug, state").
		Where("type IN ? AND (state IN ? OR published_at IS NOT NULL)", []string{TypeBlog, TypeHelp, TypeHelpCategory, TypePolicy}, []string{StatePublished, StateScheduled, StateUnpublished}).
		Scan(&rows).Error; err != nil {
		return err
	}
	ps := &pageSet{live: map[string]bool{}, gone: map[string]bool{}}
	for _, r := range rows {
		p := PagePath(r.Type, r.Slug)
		// A scheduled item that is live stays live until its new revision goes out.
		live := r.State == StatePublished || r.State == StateScheduled && s.isLive(ctx, r.Type, r.Slug)
		if live {
			ps.live[p] = true
			if r.Type != TypePolicy {
				ps.paths = append(ps.paths, p)
			}
		} else if r.State == StateUnpublished {
			ps.gone[p] = true
		}
	}
	sort.Strings(ps.paths)
	rds, err := s.LiveItems(ctx, TypeRedirect)
	if err != nil {
		return err
	}
	ps.redirects = map[string]redirect{}
	for _, rd := range rds {
		status, _ := strconv.Atoi(rd.Fields["status"])
		ps.redirects[redirectKey(rd.Slug)] = redirect{target: rd.Fields["target"], status: status}
	}
	links, err := s.LiveItems(ctx, TypeCampaignLink)
	if err != nil {
		return err
	}
	for _, l := range links {
		ps.links = append(ps.links, CampaignLink{Name: l.Slug, Target: l.Fields["target"],
			Source: l.Fields["utmSource"], Medium: l.Fields["utmMedium"], Campaign: l.Fields["utmCampaign"]})
	}
	sort.Slice(ps.links, func(i, j int) bool { return ps.links[i].Name < ps.links[j].Name })
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

func (s *Store) isLive(ctx context.Context, typ, slug string) bool {
	var n int64
	s.db.WithContext(ctx).Table("content_items").Where("type = ? AND slug = ? AND published_revision_id IS NOT NULL", typ, slug).Count(&n)
	return n > 0
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
	rows, err := s.published(ctx, TypePolicy, "", false)
	if err != nil {
		return nil, err
	}
	out := make([]Policy, 0, len(rows))
	for _, r := range rows {
		f := fieldsOf(r.Fields)
		out = append(out, Policy{Slug: r.Slug, Title: f["title"], Description: f["description"], Date: f["date"]})
	}
	return out, nil
}
