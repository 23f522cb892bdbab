package search

import (
	"html"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
)

// Bounds of one query (what a visitor can make the edge spend).
const (
	// MaxQueryRunes caps a query: longer ones are cut to this many
	// characters before anything else reads them.
	MaxQueryRunes = 100
	// MaxQueryWords caps the words of a query that are searched for.
	MaxQueryWords = 8
	// minTypoRunes: a word this long or longer matches a term one edit
	// away ("refnd" finds "refund"); shorter words match as typed.
	minTypoRunes = 5
	// minPrefixRunes: the last word of a query this long or longer also
	// matches the terms it begins ("refu" finds "refund"), as the visitor
	// may not have finished typing it.
	minPrefixRunes = 3
)

// Normalise is the form of a query the edge searches for, caches and
// counts: at most MaxQueryRunes characters, lower case, letters and digits
// with single spaces between words (punctuation is a space). Two queries
// that differ only in case, spacing or punctuation are one.
func Normalise(q string) string {
	if len(q) > 4*MaxQueryRunes {
		q = q[:4*MaxQueryRunes]
	}
	var b strings.Builder
	n, space := 0, false
	for _, r := range q {
		if n >= MaxQueryRunes {
			break
		}
		if r == utf8.RuneError {
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
				n++
			}
			space = false
			b.WriteRune(unicode.ToLower(r))
			n++
			continue
		}
		space = true
	}
	return b.String()
}

// token is one word of a text: its lower-case form and where it is.
type token struct {
	word       string
	start, end int // byte offsets in the text
}

// tokens splits text into words (runs of letters and digits; an
// apostrophe inside a word, as in "customer's", stays in it).
func tokens(text string, fn func(t token)) {
	start := -1
	for i, r := range text {
		inWord := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !inWord && (r == '\'' || r == '’') && start >= 0 && i+utf8.RuneLen(r) < len(text) {
			next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
			inWord = unicode.IsLetter(next)
		}
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			fn(token{word: strings.ToLower(text[start:i]), start: start, end: i})
			start = -1
		}
	}
	if start >= 0 {
		fn(token{word: strings.ToLower(text[start:]), start: start, end: len(text)})
	}
}

// stemmers are snowball environments for reuse (one per goroutine at a time).
var stemmers = sync.Pool{New: func() any { return snowballstem.NewEnv("") }}

// stem is a word's English stem (Snowball's Porter2): "refunds",
// "refunded" and "refunding" are all "refund". An apostrophe's ending
// goes first ("customer's" is "custom", as "customers" is).
func stem(word string) string {
	if i := strings.IndexAny(word, "'’"); i >= 0 {
		word = word[:i]
	}
	if utf8.RuneCountInString(word) < 3 {
		return word
	}
	env := stemmers.Get().(*snowballstem.Env)
	env.SetCurrent(word)
	english.Stem(env)
	s := env.Current()
	stemmers.Put(env)
	return s
}

// stopWords are words too common to say anything about a document; a
// query's own are dropped unless it has nothing else.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("a an and are as at be by can do does for from how i in is it my of on or our that the this to was what when where which who why will with you your") {
		m[w] = true
	}
	return m
}()

var (
	mdLink      = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	mdNoise     = regexp.MustCompile("(?m)^\\s{0,3}(#{1,6}\\s+|>\\s?|[-*+]\\s+|\\d+\\.\\s+)|[*_`~]+|^\\s*\\|?[-:| ]{3,}\\|?\\s*$")
	htmlHidden  = regexp.MustCompile(`(?s)<(script|style)[^>]*>.*?</(script|style)>`)
	htmlBlock   = regexp.MustCompile(`(?i)</?(p|h[1-6]|li|ul|ol|dl|dt|dd|div|section|article|aside|header|footer|nav|blockquote|pre|table|thead|tbody|tr|td|th|caption|figure|figcaption|details|summary|br|hr)\b[^>]*>`)
	htmlTag     = regexp.MustCompile(`<[^>]*>`)
	blankSpaces = regexp.MustCompile(`[ \t]*\n[ \t\n]*`)
)

// The texts keep their blocks (a heading, a paragraph, a list item) one to
// a line, so a snippet can show where one ends (highlight): a heading is
// not read as the first words of the paragraph under it.

// TextFromMarkdown is the plain text of a Markdown body, as a visitor
// reads it: links keep their words, headings, emphasis and list marks go.
func TextFromMarkdown(md string) string {
	t := mdLink.ReplaceAllString(md, "$1")
	t = mdNoise.ReplaceAllString(t, "")
	t = strings.ReplaceAll(t, "|", " ")
	return strings.TrimSpace(blankSpaces.ReplaceAllString(t, "\n"))
}

// TextFromHTML is the plain text of sanitised HTML (the content store's
// rendered body): a block's tags end a line, the others go without a
// trace ("press <strong>Verify</strong>." is "press Verify."), entities
// are decoded.
func TextFromHTML(h string) string {
	t := htmlHidden.ReplaceAllString(h, "\n")
	t = htmlBlock.ReplaceAllString(t, "\n")
	t = htmlTag.ReplaceAllString(t, "")
	t = html.UnescapeString(t)
	return strings.TrimSpace(blankSpaces.ReplaceAllString(t, "\n"))
}
