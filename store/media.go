package store

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn"
)

// Media holds media file records. Every method is scoped to one agent: a
// record of another agent is ENOTFOUND, exactly like an unknown id.
type Media interface {
	// CreateMedia stores m (ID, AgentID set by the caller) with the audit
	// entry, when not nil, in one commit.
	CreateMedia(ctx context.Context, m *cairn.Media, audit *cairn.AuditEntry) error

	// GetMedia returns the agent's record with the id.
	GetMedia(ctx context.Context, agentID, id string) (*cairn.Media, error)

	// ListMedia returns up to limit of the agent's records matching f,
	// newest first, strictly older than the record beforeID ("": from the
	// newest).
	ListMedia(ctx context.Context, agentID string, f cairn.MediaFilter, beforeID string, limit int) ([]cairn.Media, error)

	// DeleteMedia removes the agent's record with the id, and writes the
	// audit entry when not nil, in one commit, and returns what it removed.
	// Two concurrent deletes of one record: one succeeds, the other is
	// ENOTFOUND.
	DeleteMedia(ctx context.Context, agentID, id string, audit *cairn.AuditEntry) (*cairn.Media, error)

	// RenewMedia sets the expiry of the agent's record with the id to
	// expiresAt (moving its expiry index; a pinned record has none) and
	// writes the audit entry when not nil, in one commit, and returns the
	// record as stored.
	RenewMedia(ctx context.Context, agentID, id string, expiresAt time.Time, audit *cairn.AuditEntry) (*cairn.Media, error)

	// ExpiredMedia returns up to limit unpinned records of any agent whose
	// expiry is at or before now, soonest first.
	ExpiredMedia(ctx context.Context, now time.Time, limit int) ([]cairn.Media, error)
}
