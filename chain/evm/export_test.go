package evm

import (
	"context"

	"github.com/cairn-dev/cairn"
)

// Resign exposes resign to the tests: it drops r's transaction unless the
// record holds another one now.
func (a *Anchorer) Resign(ctx context.Context, r cairn.Anchor, why string) error {
	return a.resign(ctx, r, why)
}

// WarnIfOwner exposes the check Run makes at start.
func (a *Anchorer) WarnIfOwner(ctx context.Context) { a.warnIfOwner(ctx) }
