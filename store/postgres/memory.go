package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
)

var _ store.Memories = (*DB)(nil)

// nanos is t in Unix nanoseconds, clamped to what an int64 holds.
func nanos(t time.Time) int64 {
	switch {
	case t.Before(time.Unix(0, math.MinInt64)):
		return math.MinInt64
	case t.After(time.Unix(0, math.MaxInt64)):
		return math.MaxInt64
	}
	return t.UnixNano()
}

// memExpiry is the expires_ns of m: NULL when it never expires.
func memExpiry(m *cairn.Memory) any {
	if m.Pinned || m.ExpiresAt.IsZero() {
		return nil
	}
	return nanos(m.ExpiresAt)
}

// memHead reads the head of the agent's memory, locking its row for the
// transaction when lock is set.
func memHead(ctx context.Context, q querier, agentID, id string, lock bool) (*cairn.Memory, error) {
	sql := "SELECT head FROM memories WHERE agent_id = $1 AND id = $2"
	if lock {
		sql += " FOR UPDATE"
	}
	var doc []byte
	if err := q.QueryRow(ctx, sql, agentID, id).Scan(&doc); err != nil {
		return nil, memErr(err, "read memory")
	}
	return decodeJSON[cairn.Memory](doc, "memory")
}

// putHead inserts the head m (when insert) or replaces the stored one;
// with textOf, its tsvector becomes that version's, in the same write (a
// second UPDATE of the row would leave a dead tuple, and its index
// entries, for every write).
func putHead(ctx context.Context, tx pgx.Tx, m *cairn.Memory, insert bool, textOf string) error {
	s, err := headStmt(m, insert, textOf)
	if err != nil {
		return err
	}
	return s.exec(ctx, tx)
}

// headStmt is putHead's statement. A clash of keys fails with the
// database's error, for the caller to name the key.
func headStmt(m *cairn.Memory, insert bool, textOf string) (stmt, error) {
	doc, err := json.Marshal(m)
	if err != nil {
		return stmt{}, err
	}
	args := []any{m.AgentID, m.ID, m.Key, m.Type, m.Visibility, m.Pinned, m.Importance,
		nanos(m.UpdatedAt), memExpiry(m), m.Latest, doc, strings.ToLower(m.Key)}
	sql := `UPDATE memories SET key = $3, type = $4, visibility = $5, pinned = $6, importance = $7, updated_ns = $8,
		expires_ns = $9, latest = $10, head = $11, key_lower = $12`
	fts := ""
	if textOf != "" {
		args = append(args, textOf)
		fts = "(SELECT fts FROM memory_versions WHERE agent_id = $1 AND id = $13)"
		sql += ", fts = " + fts
	}
	sql += " WHERE agent_id = $1 AND id = $2"
	if insert {
		cols, vals := "", ""
		if fts != "" {
			cols, vals = ", fts", ", "+fts
		}
		sql = `INSERT INTO memories (agent_id, id, key, type, visibility, pinned, importance, updated_ns, expires_ns, latest, head, key_lower` + cols + `)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12` + vals + `)`
	}
	return stmt{sql: sql, args: args, fail: func(err error) error {
		if violates(err, "memories_key_key") {
			return err
		}
		return mapErr(err, "write memory")
	}}, nil
}

// CreateMemoryVersion writes the version, the head, the audit entry and
// the idempotency record in one transaction, notified after its commit
// (notifyCommitted), its statements sent together:
// a first version's in one round trip (an implicit transaction), a later
// one's after the read of the head it locks. A new memory's key is unique
// by memories_key_key; a later version locks the head row, so of
// concurrent writers of the same version one wins and the others find the
// latest moved (EPRECONDITION).
func (db *DB) CreateMemoryVersion(ctx context.Context, m *cairn.Memory, v *cairn.MemoryVersion, audit *cairn.AuditEntry, idem *cairn.IdempotencyRecord) error {
	if !cairn.ValidID(v.ID) || !cairn.ValidID(m.ID) || m.AgentID == "" || m.Key == "" || v.Version < 1 {
		return cairn.Errorf(cairn.EINVALID, "A memory version needs ids, an agent, a key and a version.")
	}
	var ir *idemRow
	if idem != nil {
		r, err := db.idemRow(idem)
		if err != nil {
			return err
		}
		ir = r
	}
	var entry cairn.AuditEntry
	if audit != nil {
		entry = db.prepareAudit(audit)
	}
	head, ver := *m, *v
	// write sends the statements of the version with the head prior
	// versions counted before it.
	write := func(q batcher, prior int) error {
		head.AddVersion(&ver, prior)
		doc, err := json.Marshal(&ver)
		if err != nil {
			return err
		}
		hs, err := headStmt(&head, ver.Version == 1, ver.ID)
		if err != nil {
			return err
		}
		// The version's text, indexed once, is the memory's from now on:
		// the version first, then the head row in one write.
		stmts := []stmt{newStmt("insert memory version", `INSERT INTO memory_versions (agent_id, id, memory_id, version, record, fts)
			VALUES ($1, $2, $3, $4, $5, `+ftsOf("$6")+`)`,
			head.AgentID, ver.ID, head.ID, ver.Version, doc, searchText(ver.SearchText)), hs}
		if audit != nil {
			stmts = append(stmts, auditStmt(sqlAudit, &entry))
		}
		if ir != nil {
			stmts = append(stmts, ir.stmt())
		}
		err = runBatch(ctx, q, stmts)
		if violates(err, "memories_key_key") {
			return cairn.Errorf(cairn.ECONFLICT, "Key %q is already in use.", head.Key).With("key", head.Key)
		}
		return err
	}
	var err error
	if ver.Version == 1 {
		err = write(db.pool, 0)
	} else {
		err = db.inTx(ctx, func(tx pgx.Tx) error {
			cur, err := memHead(ctx, tx, head.AgentID, head.ID, true)
			if err != nil {
				return err
			}
			if cur.Latest != ver.Version-1 || cur.Key != head.Key {
				return cairn.Errorf(cairn.EPRECONDITION, "Memory changed: latest version is %d.", cur.Latest).With("version", cur.Latest)
			}
			return write(tx, cur.Versions)
		})
	}
	if err != nil {
		return err
	}
	db.notifyCommitted(ctx, head.AgentID, head.ID, head.Key)
	if audit != nil {
		*audit = entry
	}
	*m, *v = head, ver
	return nil
}

// MemoryByVersionID returns the head and the version with the id.
func (db *DB) MemoryByVersionID(ctx context.Context, agentID, versionID string) (*cairn.Memory, *cairn.MemoryVersion, error) {
	if !cairn.ValidID(versionID) || !validText(agentID) {
		return nil, nil, store.MemoryNotFound()
	}
	var hd, vd []byte
	err := db.pool.QueryRow(ctx, `SELECT m.head, v.record FROM memory_versions v
		JOIN memories m ON m.agent_id = v.agent_id AND m.id = v.memory_id
		WHERE v.agent_id = $1 AND v.id = $2`, agentID, versionID).Scan(&hd, &vd)
	if err != nil {
		return nil, nil, memErr(err, "read memory version")
	}
	return decodeItem(hd, vd)
}

var _ store.MemoryReadLog = (*DB)(nil)

// sqlReadLogged is MemoryByVersionID's read with the read's audit entry
// (sqlAuditAsync's, synchronous_commit off for this statement only),
// inserted when the memory is not expired at $3 and the version's content
// is inlined.
const sqlReadLogged = `WITH r AS (
	SELECT m.head, v.record, m.key, v.version,
		(m.expires_ns IS NULL OR m.expires_ns > $3) AND (v.record->>'inlined')::boolean IS TRUE AS logs
	FROM memory_versions v JOIN memories m ON m.agent_id = v.agent_id AND m.id = v.memory_id
	WHERE v.agent_id = $1 AND v.id = $2
), a AS (
	INSERT INTO audit (agent_id, id, action, resource, detail, request_id, ip, created_at)
	SELECT $1, $4, $5, $2, jsonb_build_object('key', r.key, 'version', r.version), $6, $7, $8
	FROM r, (SELECT ` + asyncCommitExpr + `) AS async WHERE r.logs
	RETURNING 1
)
SELECT head, record, logs FROM r`

// ReadMemoryVersion reads the head and the version and logs the read in
// one statement (store.MemoryReadLog).
func (db *DB) ReadMemoryVersion(ctx context.Context, agentID, versionID string, now time.Time, e *cairn.AuditEntry) (*cairn.Memory, *cairn.MemoryVersion, bool, error) {
	if e == nil {
		return nil, nil, false, cairn.Errorf(cairn.EINVALID, "Missing audit entry.")
	}
	if !cairn.ValidID(versionID) || !validText(agentID) {
		return nil, nil, false, store.MemoryNotFound()
	}
	entry := db.prepareAudit(e)
	entry.AgentID = agentID
	var hd, vd []byte
	var logged bool
	err := db.pool.QueryRow(ctx, sqlReadLogged, agentID, versionID, nanos(now), entry.ID, entry.Action,
		entry.RequestID, entry.IP, entry.CreatedAt).Scan(&hd, &vd, &logged)
	if err != nil {
		return nil, nil, false, memErr(err, "read memory version")
	}
	m, v, err := decodeItem(hd, vd)
	if err != nil {
		return nil, nil, false, err
	}
	if logged {
		entry.Resource, entry.Detail = versionID, map[string]any{"key": m.Key, "version": v.Version}
		*e = entry
	}
	return m, v, logged, nil
}

func decodeItem(hd, vd []byte) (*cairn.Memory, *cairn.MemoryVersion, error) {
	m, err := decodeJSON[cairn.Memory](hd, "memory")
	if err != nil {
		return nil, nil, err
	}
	v, err := decodeJSON[cairn.MemoryVersion](vd, "memory version")
	if err != nil {
		return nil, nil, err
	}
	return m, v, nil
}

// memErr is mapErr where no row means no such memory.
func memErr(err error, what string) error { return notFound(err, store.MemoryNotFound(), what) }

// MemoryByKey returns the agent's memory with the key.
func (db *DB) MemoryByKey(ctx context.Context, agentID, k string) (*cairn.Memory, error) {
	if !validText(agentID, k) {
		return nil, store.MemoryNotFound()
	}
	var doc []byte
	err := db.pool.QueryRow(ctx, "SELECT head FROM memories WHERE agent_id = $1 AND key = $2", agentID, k).Scan(&doc)
	if err != nil {
		return nil, memErr(err, "read memory")
	}
	return decodeJSON[cairn.Memory](doc, "memory")
}

// MemoryVersions returns the stored versions, newest first.
func (db *DB) MemoryVersions(ctx context.Context, agentID, memoryID string) ([]cairn.MemoryVersion, error) {
	if !validText(agentID, memoryID) {
		return nil, store.MemoryNotFound()
	}
	out, err := queryJSON[cairn.MemoryVersion](ctx, db.pool, "memory versions",
		"SELECT record FROM memory_versions WHERE agent_id = $1 AND memory_id = $2 ORDER BY version DESC", agentID, memoryID)
	if err == nil && len(out) == 0 {
		return nil, store.MemoryNotFound()
	}
	return out, err
}

// UpdateMemory runs fn on the head with its row locked and stores the
// result with the audit entry in one transaction.
func (db *DB) UpdateMemory(ctx context.Context, agentID, memoryID string, fn func(*cairn.Memory) error, audit *cairn.AuditEntry) (*cairn.Memory, error) {
	if !cairn.ValidID(memoryID) || !validText(agentID) {
		return nil, store.MemoryNotFound()
	}
	var next cairn.Memory
	err := db.inTxAudit(ctx, audit, func(tx pgx.Tx) error {
		old, err := memHead(ctx, tx, agentID, memoryID, true)
		if err != nil {
			return err
		}
		m := *old
		m.Tags = append([]string(nil), old.Tags...)
		if err := fn(&m); err != nil {
			return err
		}
		// Only the mutable fields survive fn.
		next = *old
		next.Pinned, next.Importance, next.Tags, next.Visibility = m.Pinned, m.Importance, m.Tags, m.Visibility
		next.ExpiresAt, next.UpdatedAt = m.ExpiresAt, m.UpdatedAt
		if err := putHead(ctx, tx, &next, false, ""); err != nil {
			return err
		}
		return db.notifyMemory(ctx, tx, agentID, memoryID, next.Key)
	})
	if err != nil {
		return nil, err
	}
	return &next, nil
}

// DeleteMemoryVersion removes one version with the head row locked: the
// newest remaining version becomes the latest; removing the last one
// removes the head. All in one transaction with the audit entry.
func (db *DB) DeleteMemoryVersion(ctx context.Context, agentID, versionID string, audit *cairn.AuditEntry) (*cairn.Memory, *cairn.MemoryVersion, error) {
	if !cairn.ValidID(versionID) || !validText(agentID) {
		return nil, nil, store.MemoryNotFound()
	}
	var head *cairn.Memory
	var gone *cairn.MemoryVersion
	err := db.inTxAudit(ctx, audit, func(tx pgx.Tx) error {
		var id string
		if err := tx.QueryRow(ctx, "SELECT memory_id FROM memory_versions WHERE agent_id = $1 AND id = $2",
			agentID, versionID).Scan(&id); err != nil {
			return memErr(err, "read memory version")
		}
		old, err := memHead(ctx, tx, agentID, id, true)
		if err != nil {
			return err
		}
		var doc []byte
		if err := tx.QueryRow(ctx, "DELETE FROM memory_versions WHERE agent_id = $1 AND id = $2 AND memory_id = $3 RETURNING record",
			agentID, versionID, id).Scan(&doc); err != nil {
			return memErr(err, "delete memory version")
		}
		if gone, err = decodeJSON[cairn.MemoryVersion](doc, "memory version"); err != nil {
			return err
		}
		var n, latest int
		var latestID string
		if err := tx.QueryRow(ctx, `SELECT count(*) OVER (), version, id FROM memory_versions
			WHERE agent_id = $1 AND memory_id = $2 ORDER BY version DESC LIMIT 1`, agentID, id).Scan(&n, &latest, &latestID); errors.Is(err, pgx.ErrNoRows) {
			if _, err := tx.Exec(ctx, "DELETE FROM memories WHERE agent_id = $1 AND id = $2", agentID, id); err != nil {
				return mapErr(err, "delete memory")
			}
			return db.notifyMemory(ctx, tx, agentID, id, old.Key)
		} else if err != nil {
			return mapErr(err, "read memory versions")
		}
		next := *old
		next.Versions, next.Latest, next.LatestID = n, latest, latestID
		next.UpdatedAt = db.clock.Now()
		head = &next
		if err := putHead(ctx, tx, &next, false, ""); err != nil {
			return err
		}
		if latestID != old.LatestID {
			// The newest remaining version is the latest: its text is searched.
			if _, err := tx.Exec(ctx, `UPDATE memories SET fts = (SELECT fts FROM memory_versions WHERE agent_id = $1 AND id = $2)
				WHERE agent_id = $1 AND id = $3`, agentID, latestID, id); err != nil {
				return mapErr(err, "index memory")
			}
		}
		return db.notifyMemory(ctx, tx, agentID, id, next.Key)
	})
	if err != nil {
		return nil, nil, err
	}
	return head, gone, nil
}

// SetServerEmbedding sets the version's serverEmbedding and notifies the
// change of its memory.
func (db *DB) SetServerEmbedding(ctx context.Context, agentID, versionID string, e *cairn.Embedding) error {
	if !cairn.ValidID(versionID) || !validText(agentID) {
		return store.MemoryNotFound()
	}
	doc, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var id, key string
		err := tx.QueryRow(ctx, `UPDATE memory_versions v SET record = jsonb_set(v.record, '{serverEmbedding}', $3::jsonb)
			FROM memories m WHERE v.agent_id = $1 AND v.id = $2 AND m.agent_id = v.agent_id AND m.id = v.memory_id
			RETURNING m.id, m.key`, agentID, versionID, doc).Scan(&id, &key)
		if err != nil {
			return memErr(err, "set server embedding")
		}
		return db.notifyMemory(ctx, tx, agentID, id, key)
	})
}

// LogMemoryRead appends the entry in one statement whose transaction does
// not wait for the disk (synchronous_commit off): a crash may lose it,
// never a write's.
func (db *DB) LogMemoryRead(ctx context.Context, e *cairn.AuditEntry) error {
	if e == nil || e.AgentID == "" {
		return cairn.Errorf(cairn.EINVALID, "Missing agent id.")
	}
	entry := db.prepareAudit(e)
	if err := insertAudit(ctx, db.pool, sqlAuditAsync, &entry); err != nil {
		return err
	}
	*e = entry
	return nil
}
