package postgres

import (
	"context"

	"github.com/cairn-dev/cairn"
	"github.com/jackc/pgx/v5"
)

// AppendAudit inserts e. An id already used by the agent is ECONFLICT.
func (db *DB) AppendAudit(ctx context.Context, e *cairn.AuditEntry) error {
	if e == nil || e.AgentID == "" {
		return cairn.Errorf(cairn.EINVALID, "Missing agent id.")
	}
	entry := db.prepareAudit(e)
	if err := insertAudit(ctx, db.pool, sqlAudit, &entry); err != nil {
		return err
	}
	*e = entry
	return nil
}

// prepareAudit returns the copy of e to store, with its ID and CreatedAt.
func (db *DB) prepareAudit(e *cairn.AuditEntry) cairn.AuditEntry {
	entry := *e
	if entry.ID == "" {
		entry.ID = cairn.NewID()
	}
	entry.CreatedAt = db.stamp(entry.CreatedAt)
	return entry
}

// sqlAudit inserts an audit entry; sqlAuditAsync does too, in a
// transaction whose commit does not wait for the WAL flush
// (synchronous_commit off for that statement's transaction only).
const (
	sqlAudit = `INSERT INTO audit (agent_id, id, action, resource, detail, request_id, ip, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING 1`
	sqlAuditAsync = `INSERT INTO audit (agent_id, id, action, resource, detail, request_id, ip, created_at)
		SELECT $1, $2, $3, $4, $5, $6, $7, $8 FROM (SELECT ` + asyncCommitExpr + `) AS async RETURNING 1`
)

// asyncCommitExpr is the expression that turns synchronous_commit off for the
// transaction of the statement that evaluates it.
const asyncCommitExpr = `set_config('synchronous_commit', 'off', true)`

// insertAudit inserts e as prepared by prepareAudit, with sqlAudit or
// sqlAuditAsync.
func insertAudit(ctx context.Context, q querier, sql string, e *cairn.AuditEntry) error {
	var one int
	err := q.QueryRow(ctx, sql, auditArgs(e)...).Scan(&one)
	return mapErr(err, "insert audit entry")
}

// auditStmt is insertAudit's statement, to send with others.
func auditStmt(sql string, e *cairn.AuditEntry) stmt {
	return newStmt("insert audit entry", sql, auditArgs(e)...)
}

// auditArgs are the arguments of sqlAudit and sqlAuditAsync for e.
func auditArgs(e *cairn.AuditEntry) []any {
	var detail any
	if e.Detail != nil {
		detail = e.Detail
	}
	return []any{e.AgentID, e.ID, e.Action, e.Resource, detail, e.RequestID, e.IP, e.CreatedAt}
}

// auditQueries are the four shapes of a listing (action filter or not,
// first page or not), each a backward range scan of an index: the primary
// key (agent_id, id) or audit_action_idx (agent_id, action, id).
var auditQueries = [2][2]string{
	{
		`SELECT ` + auditColumns + ` FROM audit WHERE agent_id = $1 ORDER BY id DESC LIMIT $2`,
		`SELECT ` + auditColumns + ` FROM audit WHERE agent_id = $1 AND id < $3 ORDER BY id DESC LIMIT $2`,
	},
	{
		`SELECT ` + auditColumns + ` FROM audit WHERE agent_id = $1 AND action = $3 ORDER BY id DESC LIMIT $2`,
		`SELECT ` + auditColumns + ` FROM audit WHERE agent_id = $1 AND action = $3 AND id < $4 ORDER BY id DESC LIMIT $2`,
	},
}

const auditColumns = `agent_id, id, action, resource, detail, request_id, ip, created_at`

// ListAudit lists the agent's log newest first (ids are UUIDv7, so by
// time), strictly before beforeID.
func (db *DB) ListAudit(ctx context.Context, agentID string, f cairn.AuditFilter, beforeID string, limit int) ([]cairn.AuditEntry, error) {
	out := []cairn.AuditEntry{}
	if limit <= 0 {
		return out, nil
	}
	args := []any{agentID, limit}
	var filtered, paged int
	if f.Action != "" {
		filtered = 1
		args = append(args, f.Action)
	}
	if beforeID != "" {
		paged = 1
		args = append(args, beforeID)
	}
	return queryRows(ctx, db.pool, "audit", func(rows pgx.Rows, e *cairn.AuditEntry) error {
		err := rows.Scan(&e.AgentID, &e.ID, &e.Action, &e.Resource, &e.Detail, &e.RequestID, &e.IP, &e.CreatedAt)
		e.CreatedAt = e.CreatedAt.UTC()
		return err
	}, auditQueries[filtered][paged], args...)
}
