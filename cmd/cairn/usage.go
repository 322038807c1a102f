package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
)

// flagSection is a group of the flags of `cairn serve` in its help.
type flagSection struct {
	title string
	flags []string
}

// serveSections are the sections of `cairn serve --help`, in order; every
// flag is in exactly one (TestServeHelpSections).
var serveSections = []flagSection{
	{"HTTP", []string{"listen", "public-url", "trusted-proxies", "http-read-timeout", "http-write-timeout",
		"http-idle-timeout", "max-header-bytes", "max-body-bytes", "shutdown-timeout"}},
	{"Store", []string{"data-dir", "store", "postgres-url", "postgres-schema", "postgres-charge-defer", "leader-interval", "list-poll-interval",
		"memory-catch-up-interval", "ttl-sweep-interval", "cache-ttl"}},
	{"Blob store", []string{"blob", "blob-cache-bytes", "s3-endpoint", "s3-bucket", "s3-access-key", "s3-secret-key",
		"s3-secure", "s3-region"}},
	{"Secrets and operators", []string{"admin-token", "admin-token-file", "jwt-secret", "jwt-secret-file", "proof-key-file",
		"metrics-listen", "pprof-listen", "log-level", "log-format"}},
	{"Accounts and deposits (Aptos)", []string{"starter-credits", "deposit-mnemonic", "deposit-mnemonic-file", "aptos-network", "aptos-node-url",
		"credits-per-apt"}},
	{"Limits", []string{"rate-limit-per-key", "write-limit-per-agent", "rotate-limit-per-ip", "register-limit-per-ip",
		"register-limit-global", "public-limit-per-ip", "snapshot-mib-per-ip"}},
	{"Sanctions lists and reports", []string{"source", "source-header", "default-sources", "ingest-schedule", "ingest-max-bytes",
		"ingest-max-xml-token", "ingest-max-drop", "report-min-account-age"}},
	{"Anchoring (EVM)", []string{"evm-rpc-url", "evm-chain-id", "evm-contract", "evm-key-file", "evm-confirmations",
		"evm-poll-interval", "evm-oracle", "evm-oracle-from-block", "public-evm-rpc-url"}},
	{"Memory search", []string{"embedder-url", "embedder-model", "vector-hnsw-threshold"}},
	{"Webhooks", []string{"webhook-allow-private", "webhook-timeout", "webhook-concurrency", "webhook-per-endpoint",
		"webhook-poll-interval", "webhook-retry-for", "webhook-max-retry-delay"}},
}

// writeServeHelp writes the help of `cairn serve`: its flags by section,
// spelt --flag as the README writes them, each with its default.
func writeServeHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, "Usage: cairn serve [flags]\n\n"+
		"Every flag --some-name may also be set as the environment variable CAIRN_SOME_NAME;\n"+
		"the command line wins.\n")
	for _, s := range serveSections {
		fmt.Fprintf(w, "\n%s:\n", s.title)
		for _, name := range s.flags {
			if f := fs.Lookup(name); f != nil {
				writeFlagHelp(w, f)
			}
		}
	}
}

// writeFlagHelp writes one flag as flag.PrintDefaults does, with "--".
func writeFlagHelp(w io.Writer, f *flag.Flag) {
	kind, usage := flag.UnquoteUsage(f)
	line := "  --" + f.Name
	if kind != "" {
		line += " " + kind
	}
	fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
	if d := defaultOf(f); d != "" {
		fmt.Fprintf(w, " (default %s)", d)
	}
	fmt.Fprintln(w)
}

// defaultOf is the default a flag's help shows: none for a zero value,
// strings quoted.
func defaultOf(f *flag.Flag) string {
	switch f.DefValue {
	case "", "0", "0s", "false":
		return ""
	}
	if g, ok := f.Value.(flag.Getter); ok {
		if _, isString := g.Get().(string); isString {
			return fmt.Sprintf("%q", f.DefValue)
		}
	}
	return f.DefValue
}

// The errors of package flag, whose text is its API.
var (
	errUnknownFlag = regexp.MustCompile(`^flag provided but not defined: -+(.+)$`)
	errBadValue    = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+([^:]+): `)
	errNoValue     = regexp.MustCompile(`^flag needs an argument: -+(.+)$`)
)

// flagError rewrites an error of fs.Parse as a sentence: an unknown flag
// with the nearest one to suggest, a bad value with what the flag wants.
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if m := errUnknownFlag.FindStringSubmatch(msg); m != nil {
		if near := nearestFlag(fs, m[1]); near != "" {
			return fmt.Errorf("there is no flag --%s; did you mean --%s? (%s --help lists every flag)", m[1], near, fs.Name())
		}
		return fmt.Errorf("there is no flag --%s (%s --help lists every flag)", m[1], fs.Name())
	}
	if m := errBadValue.FindStringSubmatch(msg); m != nil {
		if f := fs.Lookup(m[2]); f != nil && wants(f) != "" {
			return fmt.Errorf("--%s takes %s, not %q", f.Name, wants(f), m[1])
		}
	}
	if m := errNoValue.FindStringSubmatch(msg); m != nil {
		if f := fs.Lookup(m[1]); f != nil && wants(f) != "" {
			return fmt.Errorf("--%s needs a value: %s", f.Name, wants(f))
		} else if f != nil {
			return fmt.Errorf("--%s needs a value", f.Name)
		}
	}
	return err
}

// wants says what kind of value a flag takes ("" when any text does).
func wants(f *flag.Flag) string {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return ""
	}
	switch g.Get().(type) {
	case time.Duration:
		return "a duration such as 90s, 5m or 1h30m"
	case bool:
		return "true or false"
	case int, int64:
		return "a whole number"
	case uint, uint64:
		return "a whole number of 0 or more"
	case float64:
		return "a number such as 0.2"
	}
	return ""
}

// nearestFlag returns the flag of fs nearest to name by edit distance, ""
// when none is near enough to be what was meant.
func nearestFlag(fs *flag.FlagSet, name string) string {
	best, bestD := "", max(2, len(name)/3)+1
	fs.VisitAll(func(f *flag.Flag) {
		if d := editDistance(name, f.Name); d < bestD {
			best, bestD = f.Name, d
		}
	})
	return best
}

// editDistance is the Damerau-Levenshtein distance of a and b (optimal
// string alignment: a swap of two neighbours counts one, as in "listne").
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// parseServeFlags parses the flags of `cairn serve`: help goes to stdout
// (flag.ErrHelp returned), a mistake is one sentence on stderr (errUsage).
func parseServeFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs.SetOutput(io.Discard)
	err := parseWithEnv(fs, args, getenv)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		writeServeHelp(stdout, fs)
		return flag.ErrHelp
	}
	fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), flagError(fs, err))
	return errUsage
}
