package shared_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"omnibus/shared"
)

// The site's table parses and validates (shared.Routes would have panicked
// otherwise): these are the facts the edge's packages take from it.
func TestTheSiteRouteTable(t *testing.T) {
	r := shared.Routes
	if len(r.Routes) < 10 || r.NotFound.ID == "" || r.NotFound.Cache.Private {
		t.Fatalf("routes.json read as %d routes, not-found %+v", len(r.Routes), r.NotFound)
	}
	var private, cached, withData int
	for _, route := range r.Routes {
		switch {
		case route.Cache.Private:
			private++
		case route.Cache.Fresh > 0:
			cached++
		}
		if len(route.EdgeData) > 0 {
			withData++
		}
	}
	if private == 0 || cached == 0 || withData == 0 {
		t.Errorf("%d private, %d cached, %d with edgeData: the table lost a field", private, cached, withData)
	}
	if !r.QueryValues["order"].Allows("0f0e5c2a-1111-4222-8333-444455556666") || r.QueryValues["order"].Allows("x") {
		t.Error("?order= must take an order id and nothing else")
	}
	if !r.QueryValues["newsletter"].Allows("subscribed") || r.QueryValues["newsletter"].Allows("anything") {
		t.Error("?newsletter= must take only its listed values")
	}
	if len(r.Redirects) == 0 || r.LayoutForm["default"] == "" {
		t.Errorf("redirects %v, layoutForm %v", r.Redirects, r.LayoutForm)
	}
}

// A table the edge could not serve is refused when it is read, with words
// that say what is wrong, rather than half-working later.
func TestARouteTableTheEdgeCannotServeIsRefused(t *testing.T) {
	for _, tc := range []struct{ table, want string }{
		{`{"notFound":{"id":"nf","cache":{"fresh":1,"stale":1}},"routes":[{"id":"x","path":"/x","cache":"sometimes"}]}`, "cache policy"},
		{`{"notFound":{"id":"nf","cache":{"fresh":1}},"routes":[]}`, "fresh, stale"},
		{`{"notFound":{"id":"nf","cache":{"fresh":1,"stale":1}},"routes":[{"id":"x","path":"x","cache":"private"}]}`, "not a site path"},
		{`{"notFound":{"id":"nf","cache":{"fresh":1,"stale":1}},"routes":[{"id":"x","path":"/x","cache":"private"},{"id":"x","path":"/y","cache":"private"}]}`, "id of its own"},
		{`{"notFound":{"id":"nf","cache":{"fresh":1,"stale":1}},"routes":[{"id":"x","path":"/x","cache":"private","edgeData":["secrets"]}]}`, "edgeData"},
		{`{"notFound":{"id":"nf","cache":{"fresh":1,"stale":1}},"routes":[{"id":"x","path":"/x","cache":{"fresh":1,"stale":1},"query":["q"]}]}`, "queryValues does not declare"},
		{`{"notFound":{"id":"nf","cache":{"fresh":1,"stale":1}},"queryValues":{"q":"("},"routes":[]}`, "queryValues q"},
		{`{"notFound":{"id":"nf","cache":{"fresh":1,"stale":1}},"routes":[],"redirects":[{"from":"/a","to":"//evil.example"}]}`, "two different site paths"},
	} {
		_, err := shared.ParseRouteTable([]byte(tc.table))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one that says %q", tc.table, err, tc.want)
		}
	}
	// A private page's parameters are passed as they are: no values needed.
	if _, err := shared.ParseRouteTable([]byte(`{"notFound":{"id":"nf","cache":{"fresh":1,"stale":1}},"routes":[{"id":"x","path":"/x","cache":"private","query":["q"]}]}`)); err != nil {
		t.Error(err)
	}
}

// The route table's fields are declared once in Go, here: a package that
// declared its own struct for routes.json (or read the file itself) would
// have to be found and changed with every new field, and could read the
// table differently from everyone else. This looks at every Go file of the
// repository outside shared/ for a struct with the table's field names, or a
// read of routes.json.
func TestRouteFieldsAreDeclaredOnlyInShared(t *testing.T) {
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", "build", "testdata":
				return filepath.SkipDir
			}
			if filepath.Clean(path) == filepath.Join(root, "shared") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		files++
		found, err := routeFieldsIn(path, nil)
		for _, f := range found {
			t.Error(f)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("looked at only %d Go files under %s", files, root)
	}
}

// The check sees what it is there to see, and lets other JSON be.
func TestTheRouteFieldCheckSeesARouteStruct(t *testing.T) {
	for src, want := range map[string]bool{
		"var table struct {\n\tRoutes []struct {\n\t\tPath string `json:\"path\"`\n\t} `json:\"routes\"`\n}":        true,
		"type r struct {\n\tP string `json:\"path\"`\n\tE []string `json:\"edgeData\"`\n}":                          true,
		"type r struct {\n\tP string `json:\"path\"`\n\tT string `json:\"title\"`\n\tM string `json:\"module\"`\n}": true,
		"func f() { os.ReadFile(\"../shared/routes.json\") }":                                                       true,
		"type target struct {\n\tPath string `json:\"path\"`\n\tPrefix string `json:\"prefix\"`\n}":                 false,
		"var files = []string{\"routes.json\"}":                                                                     false,
	} {
		found, err := routeFieldsIn("p.go", "package p\n"+src+"\n")
		if err != nil {
			t.Fatal(err)
		}
		if got := len(found) > 0; got != want {
			t.Errorf("%s: reported %v, want %v", src, found, want)
		}
	}
}

// routeFieldsIn is what the Go file at path (or src, when not nil) declares
// of the route table's fields, or reads of routes.json.
func routeFieldsIn(path string, src any) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.StructType:
			var tags []string
			hasPath, others := false, 0
			for _, field := range n.Fields.List {
				if field.Tag == nil {
					continue
				}
				tag, _ := strconv.Unquote(field.Tag.Value)
				name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
				switch {
				case slices.Contains(distinctiveRouteFields, name):
					tags = append(tags, name)
				case name == "path":
					hasPath = true
				case generalRouteFields[name]:
					others++
				}
			}
			if len(tags) > 0 || (hasPath && others >= 2) {
				found = append(found, fmt.Sprintf("%s: a struct of route-table fields %v: read shared.Routes instead", fset.Position(n.Pos()), tags))
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || !(strings.HasPrefix(sel.Sel.Name, "Read") || strings.HasPrefix(sel.Sel.Name, "Open")) {
				return true
			}
			for _, arg := range n.Args {
				ast.Inspect(arg, func(m ast.Node) bool {
					if lit, ok := m.(*ast.BasicLit); ok && lit.Kind == token.STRING && strings.HasSuffix(strings.Trim(lit.Value, "\"`"), "routes.json") {
						found = append(found, fmt.Sprintf("%s: reads routes.json itself: use shared.Routes", fset.Position(lit.Pos())))
					}
					return true
				})
			}
		}
		return true
	})
	return found, nil
}

// distinctiveRouteFields are the table's own keys and the route fields no
// other JSON of the repository uses: one of them gives a struct away.
var distinctiveRouteFields = []string{"routes", "notFound", "redirects", "queryValues", "layoutQuery", "layoutForm", "edgeData", "noindex", "layout", "cache"}

// generalRouteFields are a route's other fields (from shared.Route, but
// "path"): with "path", two of them are a route.
var generalRouteFields = func() map[string]bool {
	general := map[string]bool{}
	for f := range reflect.TypeFor[shared.Route]().Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !slices.Contains(distinctiveRouteFields, name) && name != "path" {
			general[name] = true
		}
	}
	return general
}()
