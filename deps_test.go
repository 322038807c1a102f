package cairn_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/cairn-dev/cairn"

// pkgInfo is one package of the module: its non-test imports, its test
// files' imports and how many of its non-test files carry a package doc
// comment.
type pkgInfo struct {
	imports     []string
	testImports []string
	docs        int
}

func modulePackages(t *testing.T) map[string]*pkgInfo {
	t.Helper()
	pkgs := map[string]*pkgInfo{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "data") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		isTest := strings.HasSuffix(path, "_test.go")
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		p := pkgs[dir]
		if p == nil {
			p = &pkgInfo{}
			pkgs[dir] = p
		}
		if f.Doc != nil && !isTest {
			p.docs++
		}
		for _, im := range f.Imports {
			s, _ := strconv.Unquote(im.Path.Value)
			if isTest {
				p.testImports = append(p.testImports, s)
			} else {
				p.imports = append(p.imports, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// TestPackageDocs: every package has exactly one package doc comment.
func TestPackageDocs(t *testing.T) {
	for dir, p := range modulePackages(t) {
		if p.docs != 1 {
			t.Errorf("package %s has %d package doc comments, want 1", dir, p.docs)
		}
	}
}

// rule says what a package may not import: module-internal packages by
// path prefix (relative to the module) and outside modules by prefix.
type rule struct {
	internal   []string // forbidden module packages ("" = the root package)
	external   []string // forbidden import path prefixes
	stdlibOnly bool     // besides the module's own allowed packages
	// only, when set, lists the module packages that may be imported
	// ("" = the root package): every other one is forbidden.
	only []string
}

var implementations = []string{"store/pebble", "store/postgres", "blob/fs", "blob/s3", "chain/evm", "chain/aptos"}
var contracts = []string{"store", "blob", "chain"}
var domain = []string{"account", "billing", "compliance", "memory", "media", "screening", "ingest", "webhook"}
var frontAndMain = []string{"api", "cmd"}

// testServer is the package of the in-process test server, which only
// test files import.
const testServer = "api/apitest"

func rules(dir string) rule {
	switch {
	case dir == ".":
		return rule{stdlibOnly: true, internal: []string{"*"}}
	case dir == "store" || dir == "blob" || dir == "chain":
		return rule{stdlibOnly: true, internal: append(append(append([]string{}, implementations...), domain...), frontAndMain...)}
	case dir == "memory/vector":
		// The vector index knows vectors, keys and filters: nothing of
		// the module, no storage, no HTTP.
		return rule{internal: []string{"*"}, external: []string{"github.com/gin-gonic", "github.com/cockroachdb/pebble", "github.com/jackc/pgx", "net/http", "database/sql"}}
	case dir == "ratelimit":
		// GCRA once: the root package's vocabulary, nothing else.
		return rule{stdlibOnly: true, only: []string{""}}
	case dir == "wire":
		// The JSON bodies of the HTTP API: the standard library only.
		return rule{stdlibOnly: true, internal: []string{"*"}}
	case dir == "client":
		// The Go client speaks HTTP only: the standard library and the
		// wire types, no other module package.
		return rule{stdlibOnly: true, only: []string{"wire"}}
	case dir == "internal/testenv":
		// What a test without its outside service does: the standard
		// library only.
		return rule{stdlibOnly: true, internal: []string{"*"}}
	case dir == "client/verify":
		// The client side's proof verification: the client, wire and
		// compliance.Verify, nothing else of the module.
		return rule{stdlibOnly: true, only: []string{"client", "wire", "compliance"}}
	case dir == "mcp":
		// The MCP server reaches the service through the client only.
		return rule{internal: append(append(append([]string{"", "store", "blob", "chain", "merkle"}, implementations...), domain...), frontAndMain...)}
	case dir == "merkle" || dir == "screening":
		return rule{
			internal: append(append([]string{"store", "blob", "chain"}, implementations...), frontAndMain...),
			external: []string{"github.com/gin-gonic", "github.com/robfig/cron", "github.com/cockroachdb/pebble", "github.com/jackc/pgx", "net/http", "database/sql"},
		}
	case slices.Contains(domain, dir):
		return rule{internal: append(append([]string{}, implementations...), frontAndMain...), external: []string{"github.com/gin-gonic", "net/http/httptest"}}
	case dir == "internal/wiring":
		// The assembly over opened stores, shared by cmd/cairn and the
		// in-process test server: contracts only, it opens nothing.
		return rule{internal: append([]string{"cmd"}, implementations...)}
	case dir == "api/openapi":
		// The API documents: they describe the HTTP API and call none of
		// it, so nothing of the module.
		return rule{internal: []string{"*"}}
	case dir == "api/apitest":
		// The in-process test server: the front end as cairn serve wires
		// it, on the embedded store, the fs blob store and the deposit
		// addresses, the components api's tests run on; nothing of cmd.
		return rule{internal: []string{"cmd", "store/postgres", "blob/s3", "chain/evm"}}
	case dir == "api" || strings.HasPrefix(dir, "api/"):
		// HTTP translation only: the domain services, never storage.
		return rule{internal: append(append([]string{"cmd"}, contracts...), implementations...)}
	case slices.Contains(implementations, dir) || strings.HasSuffix(dir, "test") && (strings.HasPrefix(dir, "store/") || strings.HasPrefix(dir, "blob/")):
		// No backend imports another backend (its own sub-packages, such
		// as store/postgres/pgtest, are its own).
		var others []string
		for _, impl := range implementations {
			if dir != impl && !strings.HasPrefix(dir, impl+"/") {
				others = append(others, impl)
			}
		}
		return rule{internal: append(append(others, domain...), frontAndMain...)}
	}
	return rule{internal: []string{"cmd"}}
}

func TestDependencyDirection(t *testing.T) {
	pkgs := modulePackages(t)
	if _, ok := pkgs["cmd/cairn"]; !ok {
		t.Fatal("walk found no cmd/cairn: run from the module root")
	}
	for dir, p := range pkgs {
		for _, im := range p.imports {
			if violates(dir, im) {
				t.Errorf("%s must not import %s", dir, im)
			}
		}
		for _, im := range p.testImports {
			if violatesInTest(dir, im) {
				t.Errorf("tests of %s must not import %s", dir, im)
			}
		}
	}
	if _, err := os.Stat("go.mod"); err != nil {
		t.Fatal(err)
	}
}

// violates reports whether package dir (relative to the module root) may
// not import im.
func violates(dir, im string) bool {
	r := rules(dir)
	internal, isInternal := strings.CutPrefix(im, module+"/")
	if im == module {
		internal, isInternal = "", true
	}
	switch {
	case isInternal && internal == testServer:
		// Only tests use the test server.
		return dir != testServer
	case isInternal && r.only != nil:
		return !slices.Contains(r.only, internal)
	case isInternal:
		for _, f := range r.internal {
			if f == "*" || internal == f || strings.HasPrefix(internal, f+"/") {
				return true
			}
		}
	case r.stdlibOnly && strings.Contains(strings.Split(im, "/")[0], "."):
		return true
	default:
		for _, f := range r.external {
			if strings.HasPrefix(im, f) {
				return true
			}
		}
	}
	return false
}

// violatesInTest reports whether a test file of package dir may not import
// im: the package's own rule, except that tests run on real components.
// They may use the storage and chain contracts, their implementations and
// conformance suites, net/http/httptest and, in a backend's tests, the
// domain packages that make its test data; a backend's tests still use no
// other backend of its own kind (store, blob, chain).
func violatesInTest(dir, im string) bool {
	if !violates(dir, im) || im == module+"/"+dir || dir == "." && im == module {
		return false
	}
	internal, ok := strings.CutPrefix(im, module+"/")
	if !ok {
		return im != "net/http/httptest"
	}
	if internal == testServer {
		return false
	}
	under := func(pkg, parent string) bool { return pkg == parent || strings.HasPrefix(pkg, parent+"/") }
	backend := slices.ContainsFunc(implementations, func(impl string) bool { return under(dir, impl) })
	for _, f := range append(append([]string{}, contracts...), implementations...) {
		if !under(internal, f) {
			continue
		}
		kind := strings.Split(dir, "/")[0]
		sameKind := backend && strings.Split(internal, "/")[0] == kind && strings.Contains(internal, "/")
		own := slices.ContainsFunc(implementations, func(impl string) bool { return under(dir, impl) && under(internal, impl) })
		return sameKind && !own && !strings.HasSuffix(internal, "test")
	}
	if backend && slices.Contains(domain, internal) {
		return false
	}
	return true
}

// TestRulesNameRealPackages: every package a rule names exists.
func TestRulesNameRealPackages(t *testing.T) {
	pkgs := modulePackages(t)
	for _, dir := range slices.Concat(implementations, contracts, domain, []string{"api", "cmd/cairn", "client", "internal/wiring", "api/openapi", "client/verify", "internal/testenv", "mcp", "merkle", "memory/vector", "ratelimit", "wire"}) {
		if _, ok := pkgs[dir]; !ok {
			t.Errorf("a dependency rule names %s, which is not a package of the module", dir)
		}
	}
}

func TestDependencyRules(t *testing.T) {
	for _, tc := range []struct {
		dir, im string
		bad     bool
	}{
		{".", "fmt", false},
		{".", module + "/store", true},
		{".", "github.com/google/uuid", true},
		{"store", module, false},
		{"store", module + "/store/pebble", true},
		{"store", "github.com/cockroachdb/pebble/v2", true},
		{"api", module + "/account", false},
		{"api", module + "/store/pebble", true},
		{"api", module + "/store", true},
		{"api", module + "/blob", true},
		{"store/pebble", module + "/store/postgres", true},
		{"store/postgres", module + "/store/postgres/pgtest", false},
		{"store/storetest", module + "/store/pebble", true},
		{"blob/fs", module + "/store/pebble", true},
		{"blob/s3", module + "/blob/fs", true},
		{"blob/s3", "github.com/minio/minio-go/v7", false},
		{"api", module + "/chain/aptos", true},
		{"account", module + "/chain", false},
		{"account", module + "/chain/aptos", true},
		{"account", module + "/api", true},
		{"account", "github.com/gin-gonic/gin", true},
		{"screening", "github.com/ethereum/go-ethereum/crypto", false},
		{"screening", "github.com/robfig/cron/v3", true},
		{"merkle", module + "/store", true},
		{"ingest", module + "/screening", false},
		{"store/pebble", module + "/store", false},
		{"store/pebble", module + "/api", true},
		{"cmd/cairn", module + "/store/pebble", false},
		{"chain/evm", module + "/store", false},
		{"chain/evm", module + "/chain", false},
		{"chain/evm", "github.com/ethereum/go-ethereum/ethclient", false},
		{"chain/evm", module + "/screening", true},
		{"chain/evm", module + "/api", true},
		{"api", module + "/chain/evm", true},
		{"chain", "github.com/ethereum/go-ethereum/common", true},
		{"client", "net/http", false},
		{"client", module, true},
		{"client", "github.com/google/uuid", true},
		{"client", module + "/wire", false},
		{"client", module + "/api", true},
		{"wire", "encoding/json", false},
		{"wire", module, true},
		{"wire", module + "/client", true},
		{"wire", "github.com/gin-gonic/gin", true},
		{"api", module + "/wire", false},
		{"account", module + "/wire", false},
		{"mcp", module + "/client", false},
		{"mcp", module + "/memory", true},
		{"mcp", module + "/api", true},
		{"memory/vector", "golang.org/x/sys/cpu", false},
		{"memory/vector", module, true},
		{"memory/vector", module + "/store", true},
		{"memory", module + "/memory/vector", false},
		{"ratelimit", module, false},
		{"ratelimit", module + "/store", true},
		{"ratelimit", "github.com/gin-gonic/gin", true},
		{"store/pebble", module + "/ratelimit", false},
		{"api", module + "/ratelimit", false},
		{"api/apitest", module + "/store/pebble", false},
		{"api/apitest", module + "/blob/fs", false},
		{"api/apitest", module + "/internal/wiring", false},
		{"api/apitest", module + "/store/postgres", true},
		{"api/apitest", module + "/cmd/cairn", true},
		{"cmd/cairn", module + "/api/apitest", true},
		{"mcp", module + "/api/apitest", true},
		{"internal/wiring", module + "/api", false},
		{"internal/wiring", module + "/store", false},
		{"internal/wiring", module + "/store/pebble", true},
		{"internal/wiring", module + "/chain/aptos", true},
		{"internal/wiring", module + "/cmd/cairn", true},
		{"cmd/cairn", module + "/internal/wiring", false},
		{"client/verify", module + "/compliance", false},
		{"client/verify", module + "/client", false},
		{"client/verify", module + "/store", true},
		{"client/verify", module + "/api", true},
		{"client/verify", "github.com/ethereum/go-ethereum/ethclient", true},
		{"client", module + "/compliance", true},
		{"client", module + "/client/verify", true},
		{"internal/testenv", "os/exec", false},
		{"internal/testenv", module, true},
		{"store/postgres/pgtest", module + "/internal/testenv", false},
		{"api/openapi", module, true},
		{"api/openapi", module + "/billing", true},
		{"api/openapi", "github.com/getkin/kin-openapi/openapi3", false},
		{"api", module + "/api/openapi", false},
	} {
		if got := violates(tc.dir, tc.im); got != tc.bad {
			t.Errorf("violates(%q, %q) = %v, want %v", tc.dir, tc.im, got, tc.bad)
		}
	}
}

// maxAPIFunctionLines bounds a function of package api, counted from its
// func line to its closing brace: a handler parses, calls one domain
// method and writes, and a longer one holds a decision that belongs
// elsewhere or a helper waiting to be named.
const maxAPIFunctionLines = 40

// TestAPIFunctionsAreShort: no function, method or top-level function
// literal of api or its sub-packages is longer than maxAPIFunctionLines.
// Test files and the test-helper packages (api/apitest) are not checked.
func TestAPIFunctionsAreShort(t *testing.T) {
	n := 0
	err := filepath.WalkDir("api", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || strings.HasSuffix(name, "test") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		n++
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, fn := range longFunctions(fset, f) {
			t.Errorf("%s:%d: %s is %d lines, at most %d", path, fn.line, fn.name, fn.lines, maxAPIFunctionLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("found no Go file under api: run from the module root")
	}
}

// longFunction is a function over maxAPIFunctionLines: its name, the line
// of its func keyword and its length in lines.
type longFunction struct {
	name        string
	line, lines int
}

// longFunctions returns the functions of f longer than
// maxAPIFunctionLines, in source order: declared functions and methods,
// and function literals in top-level declarations.
func longFunctions(fset *token.FileSet, f *ast.File) []longFunction {
	var long []longFunction
	check := func(name string, from, to token.Pos) {
		line := fset.Position(from).Line
		if lines := fset.Position(to).Line - line + 1; lines > maxAPIFunctionLines {
			long = append(long, longFunction{name, line, lines})
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				name = fmt.Sprintf("(%s).%s", receiverType(d.Recv.List[0].Type), name)
			}
			check(name, d.Pos(), d.End())
		case *ast.GenDecl:
			ast.Inspect(d, func(n ast.Node) bool {
				if fl, ok := n.(*ast.FuncLit); ok {
					check("func literal", fl.Pos(), fl.End())
					return false
				}
				return true
			})
		}
	}
	return long
}

// receiverType names a method's receiver type, T or *T, without its
// type parameters.
func receiverType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "*" + receiverType(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return receiverType(e.X)
	case *ast.IndexListExpr:
		return receiverType(e.X)
	}
	return "?"
}

// TestLongFunctions checks the measure on a made-up file: a function of
// 40 lines passes, one of 41 lines, a long method and a long function
// literal of a top-level var are reported with their lengths.
func TestLongFunctions(t *testing.T) {
	body := func(lines int) string { return strings.Repeat("\t_ = 0\n", lines-2) }
	src := "package p\n\n" +
		"func fits() {\n" + body(40) + "}\n\n" +
		"func tooLong() {\n" + body(41) + "}\n\n" +
		"func (s *S[K]) method() {\n" + body(45) + "}\n\n" +
		"var handler = wrap(func() {\n" + body(42) + "})\n"
	fset, f := parseSource(t, src)
	got := fmt.Sprint(longFunctions(fset, f))
	want := fmt.Sprint([]longFunction{{"tooLong", 44, 41}, {"(*S).method", 86, 45}, {"func literal", 132, 42}})
	if got != want {
		t.Errorf("longFunctions = %s, want %s", got, want)
	}
}

// storeAssertions returns the type assertions and type switch cases of f
// whose type is one of a storage package's (store, store/pebble,
// store/postgres): "line: type" each.
func storeAssertions(fset *token.FileSet, f *ast.File) []string {
	names := map[string]bool{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		rel, ok := strings.CutPrefix(p, module+"/")
		if !ok || rel != "store" && !strings.HasPrefix(rel, "store/") {
			continue
		}
		name := filepath.Base(rel)
		if im.Name != nil {
			name = im.Name.Name
		}
		names[name] = true
	}
	if len(names) == 0 {
		return nil
	}
	var found []string
	check := func(e ast.Expr) {
		if st, ok := e.(*ast.StarExpr); ok {
			e = st.X
		}
		if sel, ok := e.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && names[id.Name] {
				found = append(found, fmt.Sprintf("%d: %s.%s", fset.Position(e.Pos()).Line, id.Name, sel.Sel.Name))
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			if n.Type != nil {
				check(n.Type)
			}
		case *ast.TypeSwitchStmt:
			for _, c := range n.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					check(e)
				}
			}
		}
		return true
	})
	return found
}

// TestNoStoreTypeAssertions: outside the storage packages no code asserts
// a store's type, tests included: store.Store holds everything both
// backends provide, the store package itself says which optional
// interface a backend has (store.SearchOf, store.PreparerOf), and a test
// that needs a backend's methods holds the backend's own type.
func TestNoStoreTypeAssertions(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path == "store" || path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "data") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, a := range storeAssertions(fset, f) {
			t.Errorf("%s:%s: a type assertion on a store outside the store packages", path, a)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestStoreAssertions checks the search on a made-up file: assertions and
// type switch cases naming a storage type are found, under an import's
// own name too; others are not.
func TestStoreAssertions(t *testing.T) {
	src := `package p

import (
	"github.com/cairn-dev/cairn/store"
	pg "github.com/cairn-dev/cairn/store/postgres"
)

func f(s store.Memories, x any) {
	_ = s.(store.MemorySearch)
	_, _ = x.(*pg.DB)
	_ = x.(interface{ Close() error })
	switch x.(type) {
	case store.Proofs, int:
	}
}
`
	fset, f := parseSource(t, src)
	got := fmt.Sprint(storeAssertions(fset, f))
	if want := "[9: store.MemorySearch 10: pg.DB 13: store.Proofs]"; got != want {
		t.Errorf("storeAssertions = %s, want %s", got, want)
	}
}

// TestStoreDeclaresNoRecords: the one rule of where a type lives. Every
// value a storage contract takes or returns is a type of the root package;
// store declares interfaces and functions over them, no struct.
func TestStoreDeclaresNoRecords(t *testing.T) {
	files, err := filepath.Glob("store/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("found no Go file in store (%v): run from the module root", err)
	}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range structTypes(fset, f) {
			t.Errorf("%s:%s: store declares a struct; records, filters and queries belong to the root package", path, s)
		}
	}
}

// structTypes returns the struct types f declares at top level: "line:
// name" each.
func structTypes(fset *token.FileSet, f *ast.File) []string {
	var found []string
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok {
			for _, s := range g.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok && isStruct(ts.Type) {
					found = append(found, fmt.Sprintf("%d: %s", fset.Position(ts.Pos()).Line, ts.Name.Name))
				}
			}
		}
	}
	return found
}

func isStruct(e ast.Expr) bool {
	_, ok := e.(*ast.StructType)
	return ok
}

// TestStructTypes checks the search on a made-up file: struct types are
// found, in a group too; interfaces and other types are not.
func TestStructTypes(t *testing.T) {
	src := "package p\n\ntype A struct{}\n\ntype B interface{ M() }\n\ntype (\n\tC []int\n\tD struct{ X int }\n)\n"
	fset, f := parseSource(t, src)
	if got, want := fmt.Sprint(structTypes(fset, f)), "[3: A 9: D]"; got != want {
		t.Errorf("structTypes = %s, want %s", got, want)
	}
}

// parseSource parses the made-up file src of a test.
func parseSource(t *testing.T, src string) (*token.FileSet, *ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	return fset, f
}
