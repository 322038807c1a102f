package api

import (
	"io/fs"
	"net/http"
	"path"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/web"
	"github.com/gin-gonic/gin"
)

// consoleCSP is the Content-Security-Policy of the console: its own
// scripts and style sheet only, nothing inline, nothing from elsewhere,
// requests to this origin only, and no framing.
const consoleCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

// consoleTypes are the media types of the console's files by extension.
var consoleTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
}

// consoleRoutes registers the compliance console: its page at /console
// and its files under it. The page authenticates in the browser with the
// credential typed into it; these routes are public.
func (s *Server) consoleRoutes() {
	s.engine.GET("/console", h(func(c *gin.Context) error { return serveConsoleFile(c, "index.html") }))
	s.engine.GET("/console/:file", h(func(c *gin.Context) error { return serveConsoleFile(c, c.Param("file")) }))
}

// serveConsoleFile writes one file of the console with its security
// headers; an unknown name is a 404 problem.
func serveConsoleFile(c *gin.Context, name string) error {
	typ, ok := consoleTypes[path.Ext(name)]
	body, err := fs.ReadFile(web.Console, name)
	if !ok || err != nil {
		return cairn.Errorf(cairn.ENOTFOUND, "The console has no file %s.", name)
	}
	hd := c.Writer.Header()
	hd.Set("Content-Security-Policy", consoleCSP)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cache-Control", "no-cache")
	c.Data(http.StatusOK, typ, body)
	return nil
}
