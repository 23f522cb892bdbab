package logging_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// contextExceptions are the edge's folders the rule below does not read,
// each with its reason. None today: add one only with a reason a reviewer
// can check.
var contextExceptions = map[string]string{}

// Every warning or error logged while a request is being answered carries
// that request's id, so the on-call engineer can follow one request: the
// logger adds request_id to lines logged with the request's context
// (oncall.Handle), so such lines must be logged with ErrorContext /
// WarnContext.
//
// The rule, read from the source with go/ast (no type information, so it is
// kept simple): in the edge's non-test Go files, a call of a method or
// function named Error or Warn whose first argument is a string literal (a
// slog message: slog.Error("..."), log.Warn("..."), s.log.Error("..."))
// fails when the function it is in, or a function around it, has a
// parameter of type echo.Context or *http.Request. Calls in functions
// without a request (start-up, background loops) are not read: they have
// no request id to add.
func TestRequestPathLogsCarryTheContext(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..") // edge/
	var bad []string
	for _, top := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if _, skip := contextExceptions[rel]; skip || d.Name() == "testdata" || d.Name() == "node_modules" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			for _, pos := range contextlessLogs(f) {
				at := fset.Position(pos)
				bad = append(bad, rel+":"+strconv.Itoa(at.Line))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(bad) > 0 {
		t.Errorf("%d warnings or errors logged without the request's context where there is one "+
			"(use ErrorContext/WarnContext(c.Request().Context() or r.Context(), ...)):\n  %s",
			len(bad), strings.Join(bad, "\n  "))
	}
}

// contextlessLogs are the positions of the calls the rule above refuses.
func contextlessLogs(f *ast.File) []token.Pos {
	var found []token.Pos
	var visit func(n ast.Node, request bool)
	visit = func(n ast.Node, request bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Body != nil {
					visit(n.Body, hasRequestParam(n.Type))
				}
				return false
			case *ast.FuncLit:
				visit(n.Body, request || hasRequestParam(n.Type))
				return false
			case *ast.CallExpr:
				if request && isLogCall(n) {
					found = append(found, n.Pos())
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		visit(d, false)
	}
	return found
}

// hasRequestParam: a parameter of type echo.Context or *http.Request.
func hasRequestParam(ft *ast.FuncType) bool {
	for _, p := range ft.Params.List {
		typ := p.Type
		star, isPtr := typ.(*ast.StarExpr)
		if isPtr {
			typ = star.X
		}
		sel, ok := typ.(*ast.SelectorExpr)
		if !ok {
			continue
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			continue
		}
		if (!isPtr && pkg.Name == "echo" && sel.Sel.Name == "Context") || (isPtr && pkg.Name == "http" && sel.Sel.Name == "Request") {
			return true
		}
	}
	return false
}

// isLogCall: x.Error("...", ...) or x.Warn("...", ...), the message a
// string literal or a sum starting with one.
func isLogCall(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || (sel.Sel.Name != "Error" && sel.Sel.Name != "Warn") || len(call.Args) == 0 {
		return false
	}
	msg := call.Args[0]
	for {
		b, ok := msg.(*ast.BinaryExpr)
		if !ok || b.Op != token.ADD {
			break
		}
		msg = b.X
	}
	lit, ok := msg.(*ast.BasicLit)
	return ok && lit.Kind == token.STRING
}
