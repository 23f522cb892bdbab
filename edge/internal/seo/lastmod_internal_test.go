package seo

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"omnibus/shared"
)

// The renderer's source, beside the edge in the repository.
const appDir = "../../../ssr/app"

// importPattern finds a module's imports: `import … from "x"`, `import "x"`,
// `import("x")` and Vite's `import.meta.glob("x")`.
var importPattern = regexp.MustCompile(`(?:\bfrom|\bimport(?:\.meta\.glob(?:<[^>]*>)?)?)\s*\(?\s*"([^"]+)"`)

// imports lists the files a source file imports, as paths from the
// repository's shared/ ("content/landing.json") for shared files (imported
// as @omnibus/shared/… or by a relative path) and as file
// paths for the renderer's own modules. Packages and virtual modules are
// left out; a glob is expanded.
func imports(t *testing.T, file string) (shared, modules []string) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sharedDir, _ := filepath.Abs("../../../shared")
	for _, m := range importPattern.FindAllStringSubmatch(string(src), -1) {
		spec := m[1]
		var target string
		switch {
		case strings.HasPrefix(spec, "~/"):
			target = filepath.Join(appDir, spec[2:])
		case strings.HasPrefix(spec, "."):
			target = filepath.Join(filepath.Dir(file), spec)
		case strings.HasPrefix(spec, "@omnibus/shared/"): // the workspace package of shared/
			target = filepath.Join(sharedDir, strings.TrimPrefix(spec, "@omnibus/shared/"))
		default:
			continue // a package, virtual:route-copy
		}
		abs, _ := filepath.Abs(target)
		if rel, err := filepath.Rel(sharedDir, abs); err == nil && !strings.HasPrefix(rel, "..") {
			matches, _ := filepath.Glob(abs)
			for _, f := range matches {
				r, _ := filepath.Rel(sharedDir, f)
				shared = append(shared, filepath.ToSlash(r))
			}
			if len(matches) == 0 { // a TypeScript module of shared/ (route-table.ts)
				shared = append(shared, filepath.ToSlash(rel))
			}
			continue
		}
		for _, ext := range []string{"", ".ts", ".tsx", "/index.ts", "/index.tsx"} {
			if st, err := os.Stat(target + ext); err == nil && !st.IsDir() {
				modules = append(modules, target+ext)
				break
			}
		}
	}
	return shared, modules
}

// readsClosure is every shared/ file a route module reads, through the
// renderer's modules it imports, and the shared files it imports itself.
func readsClosure(t *testing.T, module string) (all, direct []string) {
	t.Helper()
	start := filepath.Join(appDir, "routes", module)
	direct, _ = imports(t, start)
	seen := map[string]bool{start: true}
	queue := []string{start}
	for len(queue) > 0 {
		file := queue[0]
		queue = queue[1:]
		shared, modules := imports(t, file)
		all = append(all, shared...)
		for _, m := range modules {
			if !seen[m] {
				seen[m] = true
				queue = append(queue, m)
			}
		}
	}
	return all, direct
}

// The sitemap's lastmod of a page is the last change of the content files
// the sources table says it is made of. The table is written by hand, so
// this reads the route modules' own source (their imports, followed through
// the renderer's modules) and checks it against it:
//   - every file listed for a module is one the module reads, so no entry
//     names a file the page stopped using or one that does not exist;
//   - every content file a route module imports itself is listed, so a page
//     that starts showing a new content file moves its lastmod when it does;
//   - every indexed page whose module reads content has an entry, so none
//     falls back to routes.json's date while its words come from elsewhere.
//
// A file reached only through shared helpers (the layout's site.json and
// footer.json, content.server.ts's whole library) is not required: every page
// reads those, and only the listed ones say what the page itself is about.
func TestSourcesAreWhatTheRouteModulesRead(t *testing.T) {
	routes := shared.Routes.Routes
	idsOf := map[string][]string{}
	for _, r := range routes {
		if indexed(r) {
			idsOf[r.Module] = append(idsOf[r.Module], r.ID)
		}
	}
	for module, files := range sources {
		if len(idsOf[module]) == 0 {
			t.Errorf("sources lists %s, which no indexed page uses", module)
			continue
		}
		all, direct := readsClosure(t, module)
		for _, id := range idsOf[module] {
			for _, f := range files {
				f = strings.ReplaceAll(f, "{id}", id)
				if !slices.Contains(all, f) {
					t.Errorf("sources: %s (page %s) lists %s, which it does not read", module, id, f)
				}
			}
		}
		for _, f := range direct {
			if strings.HasPrefix(f, "content/") && !slices.Contains(files, f) {
				t.Errorf("sources: %s imports %s, which its list lacks", module, f)
			}
		}
	}
	for module := range idsOf {
		if _, listed := sources[module]; listed {
			continue
		}
		all, _ := readsClosure(t, module)
		for _, f := range all {
			if strings.HasPrefix(f, "content/") {
				t.Errorf("%s reads %s but has no entry in sources (its pages would take routes.json's date)", module, f)
				break
			}
		}
	}
}
