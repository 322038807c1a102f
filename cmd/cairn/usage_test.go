package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestServeHelpSections: every flag of `cairn serve` is in exactly one
// section of its help, and every name a section lists is a flag.
func TestServeHelpSections(t *testing.T) {
	cfg := DefaultConfig()
	fs := newServeFlagSet(&cfg)
	seen := map[string]string{}
	for _, s := range serveSections {
		for _, name := range s.flags {
			if fs.Lookup(name) == nil {
				t.Errorf("section %s lists --%s, which is no flag", s.title, name)
			}
			if other, ok := seen[name]; ok {
				t.Errorf("--%s is in sections %s and %s", name, other, s.title)
			}
			seen[name] = s.title
		}
	}
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := seen[f.Name]; !ok {
			t.Errorf("--%s is in no section of the help", f.Name)
		}
	})
}

// TestServeHelp: --help prints the sections and every flag spelt --flag
// with its default on stdout, and exits 0.
func TestServeHelp(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), []string{"serve", "--help"}, &out, &errOut, func(string) string { return "" }); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	help := out.String()
	for _, want := range []string{"\nHTTP:\n  --listen string\n", `(default "127.0.0.1:8080")`, "\nBlob store:\n",
		"--ttl-sweep-interval duration", "(default 1m0s)", "\nMemory search:\n", "--vector-hnsw-threshold int"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
	if strings.Contains(help, "\n  -listen") || errOut.Len() != 0 {
		t.Errorf("single-dash flags or stderr output: %q", errOut.String())
	}
}

// TestServeFlagMistakes: a typo names the nearest flag instead of
// printing the whole help, a bad value says what the flag takes, all in
// one sentence and with exit status 2.
func TestServeFlagMistakes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--listne", "x"}, nil, "cairn serve: there is no flag --listne; did you mean --listen? (cairn serve --help lists every flag)\n"},
		{[]string{"--data-dri", "x"}, nil, "did you mean --data-dir?"},
		{[]string{"--zzzzzzzz"}, nil, "cairn serve: there is no flag --zzzzzzzz (cairn serve --help lists every flag)\n"},
		{[]string{"--ttl-sweep-interval", "soon"}, nil, `--ttl-sweep-interval takes a duration such as 90s, 5m or 1h30m, not "soon"`},
		{[]string{"--s3-secure=maybe"}, nil, `--s3-secure takes true or false, not "maybe"`},
		{[]string{"--rate-limit-per-key", "lots"}, nil, `--rate-limit-per-key takes a whole number, not "lots"`},
		{[]string{"--evm-chain-id", "-1"}, nil, `--evm-chain-id takes a whole number of 0 or more, not "-1"`},
		{[]string{"--evm-oracle-from-block", "-1"}, nil, `--evm-oracle-from-block takes a whole number of 0 or more, not "-1"`},
		{[]string{"--ingest-max-drop", "a fifth"}, nil, `--ingest-max-drop takes a number such as 0.2, not "a fifth"`},
		{[]string{"--listen"}, nil, "cairn serve: --listen needs a value\n"},
		{nil, map[string]string{"CAIRN_WRITE_LIMIT_PER_AGENT": "many"}, `CAIRN_WRITE_LIMIT_PER_AGENT="many" is not a value of --write-limit-per-agent, which takes a whole number`},
	} {
		t.Run(fmt.Sprint(tc.args, tc.env), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Run(context.Background(), append([]string{"serve"}, tc.args...), &out, &errOut, func(k string) string { return tc.env[k] })
			if code != 2 || !strings.Contains(errOut.String(), tc.want) || strings.Count(errOut.String(), "\n") != 1 || out.Len() != 0 {
				t.Fatalf("exit %d, stdout %q, stderr %q; want 2 and %q", code, out.String(), errOut.String(), tc.want)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"listne", "listen", 1}, {"listen", "listen", 0}, {"", "abc", 3}, {"data-dri", "data-dir", 1}, {"kitten", "sitting", 3}} {
		if got := editDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}

// TestVersion: `cairn version` and --version print the module version,
// the commit (and whether the tree was modified) and the Go version.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var out, errOut bytes.Buffer
		if code := Run(context.Background(), args, &out, &errOut, func(string) string { return "" }); code != 0 ||
			!strings.HasPrefix(out.String(), "cairn ") || !strings.Contains(out.String(), runtime.Version()) {
			t.Fatalf("%v: exit %d, %q %q", args, code, out.String(), errOut.String())
		}
	}
	bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/cairn-dev/cairn", Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-11-26T20:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	want := "cairn v1.2.3\ncommit 0123abcd (modified) 2026-11-26T20:00:00Z\n" + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	if got := versionText(bi); got != want {
		t.Errorf("versionText = %q, want %q", got, want)
	}
	if got := versionText(nil); !strings.HasPrefix(got, "cairn (devel)\ncommit unknown\n") {
		t.Errorf("versionText(nil) = %q", got)
	}
}

// TestErrorSentence: a *cairn.Error in an error's chain reads as its
// message on the command line.
func TestErrorSentence(t *testing.T) {
	err := fmt.Errorf("open store: %w", cairn.Errorf(cairn.EINVALID, "The prices are not valid."))
	if got := sentence(err); got != "open store: The prices are not valid." {
		t.Errorf("sentence = %q", got)
	}
	if got := sentence(errors.New("plain")); got != "plain" {
		t.Errorf("sentence = %q", got)
	}
}
