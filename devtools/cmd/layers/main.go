// Command layers checks that no import between the edge's packages runs back
// up the layers below (make lint): a package imports only packages of its
// own layer or of lower ones. Read from `go list -json` of the edge module,
// each package's non-test imports.
//
//	cd devtools && go run ./cmd/layers -dir ../edge
//
// A package the list does not name gets the lowest layer its imports allow
// (and a note asking to add it), so a new package never breaks the build by
// being new; a named package that imports above its layer does.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// layers, lowest first. Each line is what a newcomer would look for there.
var layers = [][]string{
	// 0. Primitives: read a request, write an answer, small pure helpers.
	{"httpx/request", "httpx/response", "httpx/response/responsetest", "httpx/encoding", "httpx/crossorigin",
		"buildinfo", "poll", "routepath", "token", "validation", "hashqueue", "healthcheck", "storage",
		"renderer", "platform", "redirects", "mail/mailtest", "billing/stripepay/stripemock", "browsertest"},
	// 1. Infrastructure: settings, logs, metrics, security headers, mail,
	// limits, the renderer proxy, who on the staff may do what and the
	// record of what they did.
	{"config", "config/configdoc", "logging", "logging/logtest", "security", "metrics", "mail", "ratelimit", "proxy",
		"httpx/origin", "migrate", "storage/storagetest", "staff", "staff/stafftest", "audit"},
	// 2. The mechanics of pages and API endpoints: the server, forms and how
	// an endpoint reads and answers (exchange), pages' canonical addresses,
	// the page cache, static files, content, its studio (API, pages,
	// images) and its search, SEO, analytics, the theme.
	{"server", "forms", "forms/formstest", "exchange", "canonical", "cache", "assets", "content", "content/contenttest", "studio", "studiopages", "images", "ogcard", "search", "seo", "analytics", "theme"},
	// 3. Features: accounts (and its talk with Google's OpenID provider),
	// billing, contact, newsletter.
	{"accounts", "accounts/googleid", "billing", "billing/stripepay", "contact", "newsletter"},
	// 4. Assembly: the one wiring, its test harness, the commands.
	{"app", "edgetest", "cmd/edge"},
}

type pkg struct {
	ImportPath string
	Imports    []string
}

func main() {
	dir := flag.String("dir", "../edge", "the edge module")
	flag.Parse()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir, cmd.Stderr = *dir, os.Stderr
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "layers: go list:", err)
		os.Exit(2)
	}
	pkgs, err := decode(out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "layers:", err)
		os.Exit(2)
	}
	report := check(pkgs)
	fmt.Print(report.text)
	if report.up > 0 {
		os.Exit(1)
	}
}

func decode(out []byte) ([]pkg, error) {
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			return pkgs, nil
		} else if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
}

type result struct {
	text          string
	edges, up     int
	packages      int
	unknownLayers []string
}

// check counts the imports between the module's packages and reports each
// that runs back up.
func check(pkgs []pkg) result {
	const module = "omnibus/edge/"
	short := func(path string) string {
		return strings.TrimPrefix(strings.TrimPrefix(path, module), "internal/")
	}
	layerOf := map[string]int{}
	for i, names := range layers {
		for _, n := range names {
			layerOf[n] = i
		}
	}
	imports := map[string][]string{}
	for _, p := range pkgs {
		name := short(p.ImportPath)
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module) {
				imports[name] = append(imports[name], short(imp))
			}
		}
		if _, ok := imports[name]; !ok {
			imports[name] = nil
		}
	}
	// A package not in the list: the lowest layer its imports allow.
	var infer func(name string, seen map[string]bool) int
	infer = func(name string, seen map[string]bool) int {
		if l, ok := layerOf[name]; ok {
			return l
		}
		if seen[name] {
			return 0
		}
		seen[name] = true
		l := 0
		for _, imp := range imports[name] {
			l = max(l, infer(imp, seen))
		}
		return l
	}
	var r result
	var b strings.Builder
	names := make([]string, 0, len(imports))
	for n := range imports {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if _, ok := layerOf[n]; !ok {
			l := infer(n, map[string]bool{})
			layerOf[n] = l
			r.unknownLayers = append(r.unknownLayers, n)
			fmt.Fprintf(&b, "note: %s is in no layer of devtools/cmd/layers; taken as layer %d (add it to the list)\n", n, l)
		}
	}
	for _, n := range names {
		r.packages++
		for _, imp := range imports[n] {
			r.edges++
			if layerOf[imp] > layerOf[n] {
				r.up++
				fmt.Fprintf(&b, "%s (layer %d) imports %s (layer %d): an import running back up the layers\n", n, layerOf[n], imp, layerOf[imp])
			}
		}
	}
	fmt.Fprintf(&b, "layers: %d packages, %d imports between them, %d running back up\n", r.packages, r.edges, r.up)
	r.text = b.String()
	return r
}
