package content

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"omnibus/edge/internal/security"
	"strconv"
	"strings"
	"sync"
	"time"

	"omnibus/shared"
)

// ContentHeader carries a page's content to the renderer (shared/http.json):
// base64url JSON of PageContent. The renderer never opens the database nor
// calls the edge; the edge strips incoming copies.
var ContentHeader = http.CanonicalHeaderKey(shared.HTTP.ContentHeader)

// MaxContentHeaderBytes bounds the header's value; ssr/server.js accepts
// request heads up to twice this. Lists are cut to fit (More).
const MaxContentHeaderBytes = 256 << 10

// PageContent is what a content page shows (docs/studio-api.md).
type PageContent struct {
	Preview    *PreviewInfo    `json:"preview,omitempty"`
	Article    *Article        `json:"article,omitempty"`
	Policy     *Policy         `json:"policy,omitempty"`
	Category   *Category       `json:"category,omitempty"`
	Articles   []Summary       `json:"articles,omitempty"`
	Categories []CategoryIndex `json:"categories,omitempty"`
	More       bool            `json:"more,omitempty"`
	// Card is the preview card drawn for the page's words (CardText), when
	// one is: the renderer names it as the page's og:image.
	Card string `json:"card,omitempty"`
	// Page is which page of its list a list page shows (1, the newest, is
	// the list's own address; N is ?page=N), of Pages.
	Page  int `json:"page,omitempty"`
	Pages int `json:"pages,omitempty"`
}

// CardText is what a content page's preview card shows: the words of the
// renderer's SEO page for it (ssr/app/lib/seo.server.tsx contentSeoPage).
type CardText struct {
	Title       string `json:"title"`
	Section     string `json:"section"`
	Description string `json:"description"`
}

// CardText is the card of the page at path showing pc: an article's, a
// help article's or a help topic's; false for any other page.
func (pc *PageContent) CardText(path string) (CardText, bool) {
	kind, _ := kindOf(path)
	switch {
	case kind == blogArticle && pc.Article != nil:
		return CardText{pc.Article.Title, "Blog", pc.Article.Description}, true
	case kind == helpArticle && pc.Article != nil:
		return CardText{pc.Article.Title, "Help centre", pc.Article.Description}, true
	case kind == helpCategory && pc.Category != nil:
		return CardText{pc.Category.Title, "Help centre", pc.Category.Description}, true
	}
	return CardText{}, false
}

// A list page shows one page of its articles, newest first, and links to
// the older ones (?page=2, ...): a help centre's category lists about as
// many as Stripe's and Shopify's do before "older", the blog a grid of 24.
const (
	BlogPageSize     = 24
	CategoryPageSize = 50
)

// PageParam is the query parameter of a list's page (shared/routes.json
// keeps it on the list pages, with the values queryValues allows).
const PageParam = "page"

// pageOf is the page-th page (from 1) of list cut in pages of size, and how
// many pages there are (at least one). A page past the last is empty.
func pageOf(list []Summary, page, size int) ([]Summary, int) {
	pages := pagesOf(len(list), size)
	start := (page - 1) * size
	if start >= len(list) {
		return []Summary{}, pages
	}
	return list[start:min(start+size, len(list))], pages
}

// pagesOf is how many pages n articles fill, size to a page: at least one.
func pagesOf(n, size int) int { return max(1, (n+size-1)/size) }

// PageCount is how many pages the list page at path (a canonical page
// path) has now, from the live set in memory: 0 for a path that is no list
// page, or before the first Refresh.
func (s *Store) PageCount(path string) int {
	lists := s.pageSet().lists
	if lists == nil {
		return 0
	}
	switch kind, slug := kindOf(path); kind {
	case blogList:
		return pagesOf(len(lists.articles[TypeBlog]), BlogPageSize)
	case helpCategory:
		return pagesOf(len(lists.byCategory[slug]), CategoryPageSize)
	}
	return 0
}

// pageNumber is the page a list page's ?page= asks for: 1 when absent or
// not a number from 1.
func pageNumber(r *http.Request) int {
	n, err := strconv.Atoi(r.URL.Query().Get(PageParam))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// PreviewInfo marks a preview: the page draws its banner and is noindex.
type PreviewInfo struct {
	ExpiresAt time.Time `json:"expiresAt"`
}

// CategoryIndex is a help category with its articles (the help index).
type CategoryIndex struct {
	Category
	Articles []Summary `json:"articles"`
}

// pageKind is which content a path's page shows.
type pageKind int

const (
	notContent pageKind = iota
	blogList
	helpIndex
	blogArticle
	helpArticle
	helpCategory
	policyPage
)

// policyRoutes are the route table's policy pages (module _marketing/policy.tsx).
var policyRoutes = map[string]bool{"/terms-of-use": true, "/privacy-policy": true, "/cookie-policy": true, "/disclaimer": true}

// kindOf is the content a page at path shows, and its slug.
func kindOf(path string) (pageKind, string) {
	if p, ok := strings.CutSuffix(path, ".data"); ok { // a client-side navigation's data request
		path = p
		if path == "/_root" {
			path = "/"
		}
	}
	if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	if slug, ok := strings.CutPrefix(path, "/help/category/article/"); ok && slug != "" && !strings.Contains(slug, "/") {
		return helpArticle, slug
	}
	if slug, ok := strings.CutPrefix(path, "/help/category/"); ok && slug != "" && !strings.Contains(slug, "/") {
		return helpCategory, slug
	}
	if slug, ok := strings.CutPrefix(path, "/blog/article/"); ok && slug != "" && !strings.Contains(slug, "/") {
		return blogArticle, slug
	}
	switch {
	case path == "/help" || path == "/help-centre":
		return helpIndex, ""
	case policyRoutes[path]:
		return policyPage, path[1:]
	}
	for _, p := range routes().blogLists {
		if p == path {
			return blogList, ""
		}
	}
	return notContent, ""
}

// PageContentFor reads what the page at path shows from the published
// items: nil for a page that shows no content or an unknown slug. A list
// page shows its first page.
func (s *Store) PageContentFor(ctx context.Context, path string) (*PageContent, error) {
	return s.PageContentAt(ctx, path, 1)
}

// PageContentAt is PageContentFor for the page-th page of a list page.
func (s *Store) PageContentAt(ctx context.Context, path string, page int) (*PageContent, error) {
	kind, slug := kindOf(path)
	pc := &PageContent{}
	var err error
	switch kind {
	case notContent:
		return nil, nil
	case blogList:
		var all []Summary
		all, err = s.Articles(ctx, TypeBlog)
		pc.Page = page
		pc.Articles, pc.Pages = pageOf(all, page, BlogPageSize)
		// The catalogue's single-article layouts show the newest article.
		if p := strings.TrimSuffix(strings.TrimSuffix(path, ".data"), "/"); err == nil && (p == "/blog/post" || p == "/blog/post-2") && len(pc.Articles) > 0 {
			if a, ok, err := s.Article(ctx, TypeBlog, pc.Articles[0].Slug); err != nil {
				return nil, err
			} else if ok {
				a.Body = ""
				pc.Article = &a
			}
		}
	case helpIndex:
		var cats []Category
		if cats, err = s.Categories(ctx); err != nil {
			return nil, err
		}
		if pc.Articles, err = s.Articles(ctx, TypeHelp); err != nil {
			return nil, err
		}
		for _, c := range cats {
			ci := CategoryIndex{Category: c, Articles: []Summary{}}
			if list, err := s.CategoryArticles(ctx, c.Slug); err != nil {
				return nil, err
			} else if len(list) > 0 {
				// Its newest: the category's page has them all, page by page.
				ci.Articles = list[:min(len(list), CategoryPageSize)]
			}
			pc.Categories = append(pc.Categories, ci)
		}
	case blogArticle, helpArticle:
		typ := TypeBlog
		if kind == helpArticle {
			typ = TypeHelp
		}
		a, ok, err := s.Article(ctx, typ, slug)
		if err != nil || !ok {
			return nil, err
		}
		a.Body = ""
		pc.Article = &a
		if kind == helpArticle {
			if c, ok, err := s.category(ctx, a.Category); err != nil {
				return nil, err
			} else if ok {
				pc.Category = &c
			}
		}
	case helpCategory:
		c, ok, err := s.category(ctx, slug)
		if err != nil || !ok {
			return nil, err
		}
		pc.Category = &c
		all, err := s.CategoryArticles(ctx, slug)
		if err != nil {
			return nil, err
		}
		pc.Page = page
		pc.Articles, pc.Pages = pageOf(all, page, CategoryPageSize)
	case policyPage:
		rows, err := s.published(ctx, TypePolicy, slug, true)
		if err != nil || len(rows) == 0 {
			return nil, err
		}
		f := fieldsOf(rows[0].Fields)
		pc.Policy = &Policy{Slug: slug, Title: f["title"], Description: f["description"], Date: f["date"], HTML: rows[0].HTML}
	}
	return pc, err
}

// PreviewContent is the page content of an item's latest revision, as it
// will look when published, for a preview link.
func (s *Store) PreviewContent(ctx context.Context, it Item, expires time.Time) (*PageContent, string, error) {
	r := it.Revision
	pc := &PageContent{Preview: &PreviewInfo{ExpiresAt: expires}}
	path := PagePath(it.Type, r.Slug)
	switch it.Type {
	case TypeBlog, TypeHelp:
		a := Article{Summary: summaryOf(r.Slug, r.Fields), HTML: r.HTML}
		if it.Type == TypeHelp {
			if c, ok, err := s.category(ctx, a.Category); err != nil {
				return nil, "", err
			} else if ok {
				a.CategoryTitle = c.Title
				pc.Category = &c
			}
		}
		pc.Article = &a
	case TypePolicy:
		pc.Policy = &Policy{Slug: r.Slug, Title: r.Fields["title"], Description: r.Fields["description"], Date: r.Fields["date"], HTML: r.HTML}
	case TypeHelpCategory:
		c := Category{Slug: r.Slug, Title: r.Fields["title"], Description: r.Fields["description"], Intro: r.Fields["intro"]}
		pc.Category = &c
		list, err := s.CategoryArticles(ctx, it.Slug)
		if err != nil {
			return nil, "", err
		}
		pc.Articles = list
	default:
		return nil, "", nil // links and redirects have no page to preview
	}
	return pc, path, nil
}

// MaxListed is the most articles one list page is sent (newest first).
const MaxListed = 500

// categoriesDay is the day the help categories' texts last changed in the
// repository (shared/content-dates.json, as git recorded it): a category
// page shows its title and introduction besides its articles.
var categoriesDay = sync.OnceValue(func() string {
	var dates struct {
		Files map[string]string `json:"files"`
	}
	_ = json.Unmarshal(shared.ContentDatesJSON, &dates)
	return dates.Files["content/help/categories.json"]
})

// Modified is the day what the page shows last changed, from the content's
// own dates: an article's updated (else published) day, a policy's date, a
// list's newest article (a help page's also its categories' texts,
// Category.Changed). Zero when the content has no date. The page answers it as Last-Modified, so a
// crawler's If-Modified-Since finds an unchanged page unchanged.
func (pc *PageContent) Modified() time.Time {
	day := ""
	if pc.Article != nil {
		day = max(day, pc.Article.Modified())
	}
	if pc.Policy != nil {
		day = max(day, pc.Policy.Date)
	}
	for _, a := range pc.Articles {
		day = max(day, a.Modified())
	}
	for _, c := range pc.Categories {
		for _, a := range c.Articles {
			day = max(day, a.Modified())
		}
	}
	if pc.Article == nil && pc.Category != nil {
		day = max(day, pc.Category.Changed)
	}
	for _, c := range pc.Categories {
		day = max(day, c.Changed)
	}
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return time.Time{}
	}
	return t
}

// Encode is the header's value: base64url JSON, lists cut until it fits
// MaxContentHeaderBytes (More says so).
func (pc *PageContent) Encode() (string, error) {
	// A list page shows at most MaxListed articles; cut before encoding, so
	// a blog of 10,000 is not encoded whole only to be halved.
	if len(pc.Articles) > MaxListed {
		pc.Articles, pc.More = pc.Articles[:MaxListed], true
	}
	for i := range pc.Categories {
		if a := pc.Categories[i].Articles; len(a) > MaxListed {
			pc.Categories[i].Articles, pc.More = a[:MaxListed], true
		}
	}
	for {
		b, err := json.Marshal(pc)
		if err != nil {
			return "", err
		}
		v := base64.RawURLEncoding.EncodeToString(b)
		if len(v) <= MaxContentHeaderBytes {
			return v, nil
		}
		switch {
		case len(pc.Articles) > 1:
			pc.Articles = pc.Articles[:len(pc.Articles)/2]
			pc.More = true
		case len(pc.Categories) > 0 && pc.cutCategories():
			pc.More = true
		default:
			return "", errTooLarge
		}
	}
}

func (pc *PageContent) cutCategories() bool {
	cut := false
	for i := range pc.Categories {
		if n := len(pc.Categories[i].Articles); n > 1 {
			pc.Categories[i].Articles = pc.Categories[i].Articles[:n/2]
			cut = true
		}
	}
	return cut
}

type tooLarge struct{}

func (tooLarge) Error() string { return "content: a page's content is too large for its header" }

var errTooLarge error = tooLarge{}

// PageData attaches a content page's content to the page request it
// passes to next (the renderer, behind the page cache): the published
// items, read from the database at render time. A page of an unknown slug
// goes without (the renderer draws its not-found page). When the database
// cannot be read it answers 503 rather than a page without its content
// (the page cache keeps serving what it has).
func (s *Store) PageData(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		delete(r.Header, ContentHeader)
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		pc, err := s.PageContentAt(r.Context(), r.URL.Path, pageNumber(r))
		if err == nil && pc != nil {
			if t, ok := pc.CardText(r.URL.Path); ok && s.card != nil {
				pc.Card = s.card(r.Context(), t)
			}
			if t := pc.Modified(); !t.IsZero() {
				w.Header().Set("Last-Modified", t.UTC().Format(http.TimeFormat))
			}
			var v string
			if v, err = pc.Encode(); err == nil {
				r.Header.Set(ContentHeader, v)
			}
		}
		if err != nil {
			s.log.ErrorContext(r.Context(), "content: page data", "path", r.URL.Path, "err", err)
			w.Header().Set("Cache-Control", "no-store")
			w.Header().Set("Retry-After", "5")
			http.Error(w, "This page cannot be shown right now. Please try again in a moment.", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Gone answers the page of an unpublished item 410 Gone: the request goes
// on as an unknown page's (the site's not-found page), its status turned
// into 410.
func (s *Store) Gone(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := strings.TrimSuffix(r.URL.Path, ".data")
		if !s.IsGone(path) {
			next.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(&goneWriter{ResponseWriter: w}, r)
	})
}

type goneWriter struct {
	http.ResponseWriter
	wrote bool
}

func (g *goneWriter) WriteHeader(code int) {
	if !g.wrote && code == http.StatusNotFound {
		code = http.StatusGone
	}
	g.wrote = true
	g.ResponseWriter.WriteHeader(code)
}

func (g *goneWriter) Write(b []byte) (int, error) {
	if !g.wrote {
		g.WriteHeader(http.StatusOK)
	}
	return g.ResponseWriter.Write(b)
}

func (g *goneWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// PreviewPages answers preview links (PreviewPrefix + token) with the item's
// latest revision rendered by render (the page proxy, without the page
// cache: a preview is never stored) at its page's address, never counted,
// noindex and no-store; any other request goes to next. An unknown,
// expired or revoked link is the site's not-found page (404).
func (s *Store) PreviewPages(next, render http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutPrefix(r.URL.Path, PreviewPrefix)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Robots-Tag", "noindex, nofollow")
		h.Set("Referrer-Policy", "no-referrer") // the token stays out of other sites' logs
		// The answer's nonce is drawn before the copy, so the renderer's copy
		// carries the one the answer's CSP names (else the page's inline
		// styles and scripts are refused and the preview shows unstyled).
		security.Nonce(r)
		r2 := r.Clone(r.Context())
		delete(r2.Header, ContentHeader)
		it, exp, err := s.OpenPreview(r.Context(), token)
		var pc *PageContent
		path := "/preview-not-found"
		if err == nil {
			pc, path, err = s.PreviewContent(r.Context(), it, exp)
		}
		switch {
		case err != nil && !IsNotFound(err):
			s.log.ErrorContext(r.Context(), "content: preview", "err", err)
			http.Error(w, "This preview cannot be shown right now. Please try again in a moment.", http.StatusServiceUnavailable)
			return
		case pc != nil:
			v, err := pc.Encode()
			if err != nil {
				http.Error(w, "This preview is too large to show.", http.StatusInternalServerError)
				return
			}
			r2.Header.Set(ContentHeader, v)
		default:
			path = "/preview-not-found"
		}
		r2.URL.Path, r2.URL.RawPath, r2.URL.RawQuery = path, "", ""
		r2.RequestURI = path
		render.ServeHTTP(w, r2)
	})
}
