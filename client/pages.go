package client

import "context"

// GetConsole returns the compliance console's page (getConsole), HTML
// that a browser runs; it needs no credential.
func (c *Client) GetConsole(ctx context.Context) (string, error) {
	return c.text(ctx, "/console", "text/html", authNone)
}

// GetConsoleFile returns one file of the console, such as console.js
// (getConsoleFile).
func (c *Client) GetConsoleFile(ctx context.Context, name string) (string, error) {
	return c.text(ctx, "/console/"+esc(name), "", authNone)
}

// GetAsset returns one script or style sheet of the pages, such as
// report.js (getAsset).
func (c *Client) GetAsset(ctx context.Context, name string) (string, error) {
	return c.text(ctx, "/assets/"+esc(name), "", authNone)
}
