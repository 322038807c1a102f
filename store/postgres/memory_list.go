package postgres

import (
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/jackc/pgx/v5"
)

// A listing position is the sort key of the page's last item, hex-encoded:
// "<order>:<fields>" where order is c (createdAt: the memory id), u
// (updatedAt: ns and id), p (importance: float bits and id) or h (history:
// the version id).
func encodePos(order string, fields ...string) string {
	return hex.EncodeToString([]byte(order + ":" + strings.Join(fields, ":")))
}

func decodePos(s, order string, n int) ([]string, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, cairn.InvalidCursor()
	}
	parts := strings.Split(string(b), ":")
	if len(parts) != n+1 || parts[0] != order {
		return nil, cairn.InvalidCursor()
	}
	return parts[1:], nil
}

// listOrder is one order of ListMemories: its position letter, the SQL
// ORDER BY and position condition (on the arguments from $first), and how
// to read an item's position and parse a position into arguments.
type listOrder struct {
	letter  string
	orderBy string
	after   func(first int) string
	pos     func(it *cairn.MemoryItem) []string
	args    func(f []string) ([]any, error)
}

var byID = func(col string) listOrder {
	return listOrder{
		orderBy: col + " DESC",
		after:   func(i int) string { return fmt.Sprintf("%s < $%d", col, i) },
		args:    func(f []string) ([]any, error) { return []any{f[0]}, nil },
	}
}

func listOrderOf(f *cairn.MemoryFilter) (listOrder, int, error) {
	switch {
	case f.History && f.SortBy != "" && f.SortBy != cairn.SortCreated:
		return listOrder{}, 0, cairn.Errorf(cairn.EINVALID, "history=true lists versions by createdAt only.").With("field", "sortBy")
	case f.History:
		o := byID("v.id")
		o.letter, o.pos = "h", func(it *cairn.MemoryItem) []string { return []string{it.Version.ID} }
		return o, 1, nil
	case f.SortBy == "" || f.SortBy == cairn.SortCreated:
		o := byID("m.id")
		o.letter, o.pos = "c", func(it *cairn.MemoryItem) []string { return []string{it.Memory.ID} }
		return o, 1, nil
	case f.SortBy == cairn.SortUpdated:
		return listOrder{letter: "u", orderBy: "m.updated_ns DESC, m.id DESC",
			after: func(i int) string { return fmt.Sprintf("(m.updated_ns, m.id) < ($%d, $%d)", i, i+1) },
			pos: func(it *cairn.MemoryItem) []string {
				return []string{strconv.FormatInt(nanos(it.Memory.UpdatedAt), 10), it.Memory.ID}
			},
			args: func(f []string) ([]any, error) {
				ns, err := strconv.ParseInt(f[0], 10, 64)
				return []any{ns, f[1]}, err
			}}, 2, nil
	case f.SortBy == cairn.SortImportance:
		return listOrder{letter: "p", orderBy: "m.importance DESC, m.id DESC",
			after: func(i int) string { return fmt.Sprintf("(m.importance, m.id) < ($%d, $%d)", i, i+1) },
			pos: func(it *cairn.MemoryItem) []string {
				return []string{strconv.FormatUint(math.Float64bits(it.Memory.Importance), 16), it.Memory.ID}
			},
			args: func(f []string) ([]any, error) {
				bits, err := strconv.ParseUint(f[0], 16, 64)
				return []any{math.Float64frombits(bits), f[1]}, err
			}}, 2, nil
	}
	return listOrder{}, 0, cairn.Errorf(cairn.EINVALID, "sortBy must be createdAt, updatedAt or importance.").With("field", "sortBy")
}

// ListMemories pages the agent's memories (or, for history, versions)
// with the filter in SQL, in one query, plus one count when asked.
func (db *DB) ListMemories(ctx context.Context, agentID string, q cairn.MemoryQuery) (*cairn.MemoryPage, error) {
	f := q.Filter
	o, nf, err := listOrderOf(&f)
	if err != nil {
		return nil, err
	}
	from := `memories m JOIN memory_versions v ON v.agent_id = m.agent_id AND v.memory_id = m.id AND v.version = m.latest`
	if f.History {
		from = `memory_versions v JOIN memories m ON m.agent_id = v.agent_id AND m.id = v.memory_id`
	}
	args := []any{agentID}
	where := " WHERE m.agent_id = $1"
	add := func(cond string, v any) {
		args = append(args, v)
		where += fmt.Sprintf(" AND "+cond, len(args))
	}
	if !f.Now.IsZero() {
		add("(m.expires_ns IS NULL OR m.expires_ns > $%d)", nanos(f.Now))
	}
	if f.Type != "" {
		add("m.type = $%d", f.Type)
	}
	if f.Visibility != "" {
		add("m.visibility = $%d", f.Visibility)
	}
	if f.Pinned != nil {
		add("m.pinned = $%d", *f.Pinned)
	}
	if f.MinImportance != 0 {
		add("m.importance >= $%d", f.MinImportance)
	}
	if q.After != "" {
		fields, err := decodePos(q.After, o.letter, nf)
		if err != nil {
			return nil, err
		}
		pa, err := o.args(fields)
		if err != nil {
			return nil, cairn.InvalidCursor()
		}
		where += " AND " + o.after(len(args)+1)
		args = append(args, pa...)
	}
	page := &cairn.MemoryPage{Items: []cairn.MemoryItem{}, Total: -1}
	if !validText(agentID, f.Type, f.Visibility) {
		if q.Count {
			page.Total = 0
		}
		return page, nil
	}
	limit := max(q.Limit, 0)
	sql := fmt.Sprintf("SELECT m.head, v.record FROM %s%s ORDER BY %s OFFSET $%d LIMIT $%d",
		from, where, o.orderBy, len(args)+1, len(args)+2)
	rows, err := db.pool.Query(ctx, sql, append(args, max(q.Offset, 0), limit+1)...)
	if err != nil {
		return nil, mapErr(err, "list memories")
	}
	defer rows.Close()
	more := false
	for rows.Next() {
		var hd, vd []byte
		if err := rows.Scan(&hd, &vd); err != nil {
			return nil, mapErr(err, "list memories")
		}
		if len(page.Items) == limit {
			more = true
			break
		}
		m, v, err := decodeItem(hd, vd)
		if err != nil {
			return nil, err
		}
		page.Items = append(page.Items, cairn.MemoryItem{Memory: *m, Version: *v})
	}
	if err := rows.Err(); err != nil {
		return nil, mapErr(err, "list memories")
	}
	rows.Close()
	if more && len(page.Items) > 0 {
		page.Next = encodePos(o.letter, o.pos(&page.Items[len(page.Items)-1])...)
	}
	if q.Count {
		if err := db.pool.QueryRow(ctx, "SELECT count(*) FROM "+from+where, args...).Scan(&page.Total); err != nil {
			return nil, mapErr(err, "count memories")
		}
	}
	return page, nil
}

// scanPage is how many rows the walks below read per query, so that fn
// never runs while a connection is held.
const scanPage = 500

// walkPages calls fn with each row of the pages that next reads (next is
// given the last row of the page before, nil for the first), reading a
// page only when fn is done with the one before, so that fn never runs
// while a connection is held. It stops when fn returns false or a page has
// fewer than scanPage rows.
func walkPages[T any](next func(last *T) ([]T, error), fn func(*T) bool) error {
	var last *T
	for {
		page, err := next(last)
		if err != nil {
			return err
		}
		for i := range page {
			if !fn(&page[i]) {
				return nil
			}
		}
		if len(page) < scanPage {
			return nil
		}
		last = &page[len(page)-1]
	}
}

// MemoryKeys walks memories_key_key from prefix, a page at a time.
func (db *DB) MemoryKeys(ctx context.Context, agentID, prefix string, fn func(k, memoryID string) bool) error {
	if !validText(agentID, prefix) {
		return nil
	}
	type kv struct{ k, id string }
	return walkPages(func(last *kv) ([]kv, error) {
		after, op := prefix, ">="
		if last != nil {
			after, op = last.k, ">"
		}
		return queryRows(ctx, db.pool, "memory keys", func(rows pgx.Rows, r *kv) error { return rows.Scan(&r.k, &r.id) },
			`SELECT key, id FROM memories WHERE agent_id = $1 AND key `+op+` $2
			AND starts_with(key, $3) ORDER BY key LIMIT $4`, agentID, after, prefix, scanPage)
	}, func(r *kv) bool { return fn(r.k, r.id) })
}

// ScanLatestMemories walks every head with its latest version, a page at a
// time in (agent, id) order.
func (db *DB) ScanLatestMemories(ctx context.Context, fn func(m *cairn.Memory, v *cairn.MemoryVersion) error) error {
	agent, id := "", ""
	for {
		rows, err := db.pool.Query(ctx, `SELECT m.head, v.record FROM memories m
			JOIN memory_versions v ON v.agent_id = m.agent_id AND v.memory_id = m.id AND v.version = m.latest
			WHERE (m.agent_id, m.id) > ($1, $2) ORDER BY m.agent_id, m.id LIMIT $3`, agent, id, scanPage)
		if err != nil {
			return mapErr(err, "scan memories")
		}
		var items []cairn.MemoryItem
		for rows.Next() {
			var hd, vd []byte
			if err := rows.Scan(&hd, &vd); err != nil {
				rows.Close()
				return mapErr(err, "scan memories")
			}
			m, v, err := decodeItem(hd, vd)
			if err != nil {
				rows.Close()
				return err
			}
			items = append(items, cairn.MemoryItem{Memory: *m, Version: *v})
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return mapErr(err, "scan memories")
		}
		for i := range items {
			if err := fn(&items[i].Memory, &items[i].Version); err != nil {
				return err
			}
		}
		if len(items) < scanPage {
			return nil
		}
		agent, id = items[len(items)-1].Memory.AgentID, items[len(items)-1].Memory.ID
	}
}

// ExpiringMemories reads memories_agent_expiry_idx after from up to until.
func (db *DB) ExpiringMemories(ctx context.Context, agentID string, from, until time.Time, typ string, limit int) ([]cairn.Memory, error) {
	if limit <= 0 || !validText(agentID, typ) {
		return []cairn.Memory{}, nil
	}
	return queryJSON[cairn.Memory](ctx, db.pool, "memories", `SELECT head FROM memories
		WHERE agent_id = $1 AND expires_ns > $2 AND expires_ns <= $3 AND ($4 = '' OR type = $4)
		ORDER BY expires_ns, id LIMIT $5`, agentID, nanos(from), nanos(until), typ, limit)
}

// ExpiredMemories reads memories_expiry_idx up to now, soonest first.
func (db *DB) ExpiredMemories(ctx context.Context, now time.Time, limit int) ([]cairn.Memory, error) {
	if limit <= 0 {
		return []cairn.Memory{}, nil
	}
	return queryJSON[cairn.Memory](ctx, db.pool, "memories", `SELECT head FROM memories
		WHERE expires_ns IS NOT NULL AND expires_ns <= $1 ORDER BY expires_ns, agent_id, id LIMIT $2`, nanos(now), limit)
}

// ExpiringAfter reads memories_expiry_idx after the position up to until.
func (db *DB) ExpiringAfter(ctx context.Context, after cairn.Memory, until time.Time, limit int) ([]cairn.Memory, error) {
	if limit <= 0 || !validText(after.AgentID, after.ID) {
		return []cairn.Memory{}, nil
	}
	if after.AgentID == "" && after.ID == "" {
		return queryJSON[cairn.Memory](ctx, db.pool, "memories", `SELECT head FROM memories
		WHERE expires_ns >= $1 AND expires_ns <= $2 ORDER BY expires_ns, agent_id, id LIMIT $3`,
			nanos(after.ExpiresAt), nanos(until), limit)
	}
	return queryJSON[cairn.Memory](ctx, db.pool, "memories", `SELECT head FROM memories
		WHERE (expires_ns, agent_id, id) > ($1, $2, $3) AND expires_ns <= $4 ORDER BY expires_ns, agent_id, id LIMIT $5`,
		nanos(after.ExpiresAt), after.AgentID, after.ID, nanos(until), limit)
}
