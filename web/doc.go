// Package web holds the browser side of cairn, embedded in the binary:
// the JavaScript verifier of proof documents (verify/, bundled with
// esbuild from npm packages into verify/dist/cairn-verify.js, which is
// committed so that a build needs no node), for the proof report page and
// for wallets and dapps. It imports nothing of the module.
package web

import _ "embed"

// VerifierJS is the bundled JavaScript verifier (an ES module):
// verify/dist/cairn-verify.js, rebuilt by `npm run build` in web/verify.
//
//go:embed verify/dist/cairn-verify.js
var VerifierJS []byte
