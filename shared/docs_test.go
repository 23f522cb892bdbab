package shared_test

// The repository's documentation keeps the shape a newcomer relies on: a
// short README that points to docs/, decision notes numbered once each in one
// scheme, and no reference to a note or a doc that does not exist (a renamed
// note must be renamed everywhere it is cited).

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const maxReadmeLines = 350

// root is the repository, one level above this module.
const root = ".."

func TestReadmeIsShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n > maxReadmeLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail to docs/<topic>.md and leave a one-line pointer", n, maxReadmeLines)
	}
}

var noteName = regexp.MustCompile(`^([0-9]{4})-[a-z0-9]+(-[a-z0-9]+)*\.md$`)

func TestDecisionNotesAreNumberedOnceEach(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(root, "docs", "decisions"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, e := range entries {
		m := noteName.FindStringSubmatch(e.Name())
		if m == nil {
			t.Errorf("docs/decisions/%s: name is not NNNN-kebab-title.md", e.Name())
			continue
		}
		if other, dup := seen[m[1]]; dup {
			t.Errorf("decision number %s is used twice: %s and %s", m[1], other, e.Name())
		}
		seen[m[1]] = e.Name()
		b, err := os.ReadFile(filepath.Join(root, "docs", "decisions", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte("# "+m[1]+" ")) {
			t.Errorf("docs/decisions/%s: the first line should be the heading \"# %s <title>\"", e.Name(), m[1])
		}
	}
}

// cited matches a decision note named anywhere: docs/decisions/NNNN-….md, or
// decisions/NNNN-….md in a relative Markdown link.
var cited = regexp.MustCompile(`decisions/([0-9]{4}[A-Za-z0-9._-]*\.md)`)

// mdLink matches a relative Markdown link target.
var mdLink = regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)

var textFile = regexp.MustCompile(`\.(go|ts|tsx|js|mjs|json|md|ya?ml|css|sh|lua|template)$|^(Makefile|Dockerfile)$`)

func TestEveryCitedDocExists(t *testing.T) {
	skip := map[string]bool{".git": true, "node_modules": true, "build": true, "bin": true, "data": true,
		"lighthouse-results": true, "test-results": true, "playwright-report": true}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skip[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if !textFile.MatchString(d.Name()) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range cited.FindAllSubmatch(b, -1) {
			if _, err := os.Stat(filepath.Join(root, "docs", "decisions", string(m[1]))); err != nil {
				t.Errorf("%s cites docs/decisions/%s, which does not exist", path, m[1])
			}
		}
		// Links of the docs a reader follows: README.md and docs/.
		if rel, _ := filepath.Rel(root, path); strings.HasSuffix(path, ".md") && (rel == "README.md" || strings.HasPrefix(rel, "docs"+string(filepath.Separator))) {
			for _, m := range mdLink.FindAllSubmatch(b, -1) {
				target := string(m[1])
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "/") {
					continue
				}
				if _, err := os.Stat(filepath.Join(filepath.Dir(path), target)); err != nil {
					t.Errorf("%s links to %s, which does not exist", path, target)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
