package security

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// The regular expressions Seal used before it scanned elements by hand (they cost a
// page miss more than its compression): elements must find
// exactly their matches, in less time.
var (
	scriptExpr = regexp.MustCompile(`(?is)(<script\b[^>]*>)(.*?)</script\s*>`)
	styleExpr  = regexp.MustCompile(`(?is)(<style\b[^>]*>)(.*?)</style\s*>`)
)

func expressionMatches(re *regexp.Regexp, body []byte) [][3]int {
	var out [][3]int
	for _, m := range re.FindAllSubmatchIndex(body, -1) {
		out = append(out, [3]int{m[2], m[4], m[5]})
	}
	return out
}

func sameMatches(t *testing.T, body []byte) {
	t.Helper()
	lower := asciiLower(body)
	for tag, re := range map[string]*regexp.Regexp{"script": scriptExpr, "style": styleExpr} {
		got, want := elements(lower, tag), expressionMatches(re, body)
		if len(got) != len(want) {
			t.Fatalf("%s in %q: %v, the expression %v", tag, body, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s in %q: %v, the expression %v", tag, body, got, want)
			}
		}
	}
}

func TestElementsAsTheExpression(t *testing.T) {
	for _, doc := range []string{
		``, `<script>a</script>`, `<SCRIPT nonce="n">a</Script >`, `<script>a</script\n>`, `<scripts>x</scripts><script>y</script>`,
		`<script src="/a.js"></script><style>b{}</style>`, `<script>a</scriptx></script>`, `<script>a</script`, `<script`, `<script a>`,
		`<style media="x">p{}</style\t>text<style>q{}</STYLE>`, `<script>1</script><script>2</script>`, `<script>a</script b>`,
		`<script>é İ</script>`, `<scriptİ>x</script>`, `<script_a>x</script>`, `<script-a>x</script>`, `<p><script>a`,
	} {
		sameMatches(t, []byte(doc))
	}
	// Random documents from the pieces that matter.
	pieces := []string{"<script", "<SCRIPT", "<style", "</script", "</style", ">", " ", "\n", "x", "a=1", "İ", "</scrip", "_", "-"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b bytes.Buffer
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		sameMatches(t, b.Bytes())
	}
	// A real document of the site when one is at hand (the built renderer's pages are not, in go test).
	if page, err := os.ReadFile(filepath.Join("testdata", "page.html")); err == nil {
		sameMatches(t, page)
	}
}
