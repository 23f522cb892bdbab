package content

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	goldhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Markdown is rendered once, here on the edge, when a revision is saved:
// GitHub-flavoured Markdown (goldmark), headings with ids a section can be
// linked by (HeadingID, the renderer's old headingId), then sanitised
// (bluemonday: no script, no event handler, no javascript: URL survives),
// then wide tables wrapped so they scroll sideways on a phone. The renderer
// inserts the result as static markup.

var (
	headingStrip  = regexp.MustCompile("<[^>]*>|&[a-z]+;|[*_`]")
	headingNumber = regexp.MustCompile(`^\d+\.\s*`)
	headingOther  = regexp.MustCompile(`[^a-z0-9]+`)
)

// HeadingID is a heading's anchor from its Markdown text:
// "2. Plans, fees and taxes" → "plans-fees-and-taxes".
func HeadingID(text string) string {
	s := strings.ToLower(text)
	s = headingStrip.ReplaceAllString(s, "")
	s = headingNumber.ReplaceAllString(s, "")
	s = headingOther.ReplaceAllString(s, "-")
	return strings.Trim(s, "-")
}

// headingIDs gives every heading its id from its source text.
type headingIDs struct{}

func (headingIDs) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		var raw bytes.Buffer
		lines := h.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			raw.Write(seg.Value(src))
		}
		h.SetAttributeString("id", []byte(HeadingID(strings.TrimSpace(raw.String()))))
		return ast.WalkSkipChildren, nil
	})
}

var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(headingIDs{}, 100))),
	// Raw HTML in the Markdown is passed on to the sanitiser, which keeps
	// only the safe part of it (an editor may write <kbd> or a <br>).
	goldmark.WithRendererOptions(goldhtml.WithUnsafe()),
)

var sanitiser = sync.OnceValue(func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.RequireNoFollowOnLinks(false)
	p.AllowAttrs("id").Matching(regexp.MustCompile(`^[a-z0-9-]{1,200}$`)).OnElements("h1", "h2", "h3", "h4", "h5", "h6")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^language-[A-Za-z0-9_+-]{1,40}$`)).OnElements("code")
	// GFM task lists render disabled checkboxes.
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").OnElements("input")
	return p
})

// MaxBodyBytes bounds a revision's Markdown (the studio's body limit is
// above it): a long help article is 20 KB.
const MaxBodyBytes = 200 << 10

// Render turns Markdown into the sanitised HTML stored with a revision.
func Render(md string) (string, error) {
	var out bytes.Buffer
	if err := markdown.Convert([]byte(md), &out); err != nil {
		return "", err
	}
	clean := sanitiser().Sanitize(out.String())
	// Wide tables scroll sideways on narrow screens instead of being cut
	// off. Only the sanitiser's own output is rewritten: a <table> in it is
	// a real table element, never text.
	clean = strings.ReplaceAll(clean, "<table>", `<div class="table-scroll" tabindex="0"><table>`)
	clean = strings.ReplaceAll(clean, "</table>", "</table></div>")
	return clean, nil
}

var tags = regexp.MustCompile(`<[^>]*>`)

// PlainText is the words of rendered HTML, for search: tags dropped,
// entities decoded, whitespace folded.
func PlainText(h string) string {
	s := tags.ReplaceAllString(h, " ")
	return strings.Join(strings.Fields(html.UnescapeString(s)), " ")
}
