// Package testenv ends a test whose outside service or tool is missing: a
// PostgreSQL server, an EVM node, an S3 server named by an environment
// variable, or node with an npm package. The test is skipped, or fails when
// the matching CAIRN_REQUIRE_* variable is 1, as CI sets it where
// everything is installed.
//
// It is imported by tests and the test-helper packages only. It imports
// the standard library only.
package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// Missing ends the test: it fails when the environment variable require
// is "1", and is skipped otherwise. why says what is missing and how to
// get it.
func Missing(tb testing.TB, require, why string) {
	tb.Helper()
	if os.Getenv(require) == "1" {
		tb.Fatalf("%s=1 but %s", require, why)
	}
	tb.Skip(why)
}

// Env returns the environment variable name, or ends the test as Missing
// does when it is unset; how, when not empty, says how to get the service.
func Env(tb testing.TB, name, require, how string) string {
	tb.Helper()
	v := os.Getenv(name)
	if v == "" {
		why := name + " is not set"
		if how != "" {
			why += " (" + how + ")"
		}
		Missing(tb, require, why)
	}
	return v
}

// Node returns the path of node, with the npm package whose package.json
// is at pkg installed ("" for node alone), or ends the test as Missing does
// with CAIRN_REQUIRE_EVM (CI installs node and the packages); how says how
// to install them.
func Node(tb testing.TB, pkg, how string) string {
	tb.Helper()
	node, err := exec.LookPath("node")
	if err == nil && pkg != "" {
		_, err = os.Stat(pkg)
	}
	if err != nil {
		what := "node"
		if pkg != "" {
			what += " or " + pkg
		}
		Missing(tb, "CAIRN_REQUIRE_EVM", fmt.Sprintf("%s is missing (%s): %v", what, how, err))
	}
	return node
}
