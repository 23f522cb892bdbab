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
		if e.Name() == "README.md" { // the index, TestDecisionIndexListsEveryNote
			continue
		}
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

// The decisions index (docs/decisions/README.md) lists every note by a link
// to its file, so a newcomer finds each one's status and what superseded it
// in one place; a note added without its row fails here.
func TestDecisionIndexListsEveryNote(t *testing.T) {
	dir := filepath.Join(root, "docs", "decisions")
	index, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatalf("the decisions index: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	notes := 0
	for _, e := range entries {
		if !noteName.MatchString(e.Name()) {
			continue
		}
		notes++
		if !bytes.Contains(index, []byte("]("+e.Name()+")")) {
			t.Errorf("docs/decisions/README.md has no row linking %s: add its number, title, status and what superseded it", e.Name())
		}
	}
	if notes == 0 {
		t.Fatal("no decision notes found")
	}
}

// README's "Where things live" names every Go package under edge/internal
// (a direct child as "internal/<name>/", a nested one by its own name) and
// every top-level folder of ssr/app (as "app/<name>/"): a newcomer finds a
// thing from that map, so a package added without a line there fails here.
func TestReadmeMapNamesEveryPackageAndAppFolder(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "## Where things live")
	if !ok {
		t.Fatal(`README.md has no "## Where things live" section`)
	}
	section, _, _ := strings.Cut(after, "\n## ")
	internal := filepath.Join(root, "edge", "internal")
	err = filepath.WalkDir(internal, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() || path == internal {
			return err
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !hasGoSource(t, path) {
			return nil
		}
		rel, _ := filepath.Rel(internal, path)
		rel = filepath.ToSlash(rel)
		if !strings.Contains(rel, "/") {
			if !strings.Contains(section, "internal/"+rel+"/") {
				t.Errorf("README's \"Where things live\" has no line for edge/internal/%s/", rel)
			}
		} else if !regexp.MustCompile(`\b` + regexp.QuoteMeta(d.Name()) + `\b`).MatchString(section) {
			t.Errorf("README's \"Where things live\" does not name edge/internal/%s (say what it is on its parent's line)", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	app, err := os.ReadDir(filepath.Join(root, "ssr", "app"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range app {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && !strings.HasPrefix(e.Name(), "+") {
			if !strings.Contains(section, "app/"+e.Name()+"/") {
				t.Errorf("README's \"Where things live\" has no line for ssr/app/%s/", e.Name())
			}
		}
	}
}

// hasGoSource says whether dir holds a Go file that is not a test: a package.
func hasGoSource(t *testing.T, dir string) bool {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			return true
		}
	}
	return false
}
