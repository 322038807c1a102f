package web

import (
	"embed"
	"io/fs"
)

//go:embed console/*.html console/*.js console/*.css
var consoleFiles embed.FS

// Console is the compliance console (console/): its page, its JavaScript
// modules and its style sheet, served under /console. Nothing in it is
// inline or loaded from elsewhere, so that the page runs under a strict
// Content-Security-Policy.
var Console, _ = fs.Sub(consoleFiles, "console")
