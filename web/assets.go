package web

import "embed"

// Assets are the static files of the pages (assets/: style sheets and
// scripts), served under /assets/ with cairn-verify.js (VerifierJS)
// beside them, so that a page loads nothing from elsewhere.
//
//go:embed assets
var Assets embed.FS

// ReportHTML is the html/template of the proof report page (GET
// /v1/compliance/proofs/:id asked for as text/html).
//
//go:embed report.html
var ReportHTML string

// HeadHTML defines the template "head", the start of every page (doctype
// to the head's meta elements), which ReportHTML and NotFoundHTML call.
//
//go:embed head.html
var HeadHTML string

// NotFoundHTML is the html/template of the page a browser gets for a proof
// the service does not hold (404), styled as the report.
//
//go:embed notfound.html
var NotFoundHTML string
