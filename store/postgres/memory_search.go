package postgres

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
)

var _ store.MemorySearch = (*DB)(nil)

// maxSearchText bounds the text indexed of one version: the first MiB of
// it (memory_text_vector halves it again while its tsvector would pass the
// 1 MB limit of a tsvector). It bounds the work a write does in its
// transaction: to_tsvector of a MiB takes about 0.15 s.
const maxSearchText = 1 << 20

// searchText is the parameter of a version's text: NULL when not indexed,
// else the text as PostgreSQL text holds it (invalid UTF-8 and NUL bytes,
// which no word holds, become spaces), at most maxSearchText bytes.
func searchText(t *string) any {
	if t == nil {
		return nil
	}
	s := *t
	if len(s) > maxSearchText {
		s = s[:maxSearchText] // a rune cut in two becomes a space below
	}
	if !validText(s) {
		s = strings.ReplaceAll(strings.ToValidUTF8(s, " "), "\x00", " ")
	}
	return s
}

// ftsOf is the SQL of the tsvector of the text parameter p (searchText):
// empty when the version is not indexed, which tells it from one whose
// text was never given (NULL).
func ftsOf(p string) string {
	return `CASE WHEN ` + p + `::text IS NULL THEN ''::tsvector ELSE memory_text_vector(` + p + `::text) END`
}

// likeEscaper escapes the LIKE wildcards of a needle (backslash is LIKE's
// default escape character).
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// SearchMemories answers a search from memory_search, the narrow copy of
// the heads that migration 0015 keeps for it: full text through
// memory_search_fts_idx (textQuery, ranked by ts_rank), keys through
// key_lower (LIKE, served by memory_search_key_trgm_idx when pg_trgm is
// installed), tags through memory_search_tags_idx and expiry from
// expires_ns, all in one statement. A key search without text reads the
// keys that start with the needle first, through
// memory_search_key_lower_idx: they outrank every other match, so when there
// are enough of them they are the answer, and the substring search (every
// key of the agent without pg_trgm) is not run.
func (db *DB) SearchMemories(ctx context.Context, agentID string, q cairn.MemorySearchQuery) ([]cairn.MemoryMatch, error) {
	if q.Limit < 1 {
		return nil, cairn.Errorf(cairn.EINVALID, "A search needs a positive limit.")
	}
	if !validText(agentID, q.Text, q.Key) {
		return []cairn.MemoryMatch{}, nil // nothing stored can match
	}
	needle := strings.ToLower(q.Key)
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	// base starts a statement's arguments and conditions: the agent, the
	// expiry and the tags.
	base := func(limit int) (string, error) {
		args = []any{agentID, nanos(q.Now), limit}
		where := "m.agent_id = $1 AND (m.expires_ns IS NULL OR m.expires_ns > $2)"
		if len(q.Tags) > 0 {
			tags, err := json.Marshal(q.Tags)
			if err != nil {
				return "", err
			}
			where += " AND m.tags @> " + arg(string(tags)) + "::jsonb"
		}
		return where, nil
	}
	from, score := "memory_search m", "1"
	where, err := base(q.Limit)
	if err != nil {
		return nil, err
	}
	if needle != "" && q.Text == "" {
		starts := likeEscaper.Replace(needle) + "%"
		out, err := db.searchMemories(ctx, from, where+" AND m.key_lower LIKE "+arg(starts),
			"CASE WHEN m.key_lower = "+arg(needle)+" THEN 3 ELSE 2 END", args)
		if err != nil || len(out) == q.Limit {
			return out, err
		}
		if where, err = base(q.Limit - len(out)); err != nil {
			return nil, err
		}
		where += " AND m.key_lower NOT LIKE " + arg(starts) + " AND " + keyLike(agentID, needle, arg)
		rest, err := db.searchMemories(ctx, from, where, score, args)
		return append(out, rest...), err
	}
	if needle != "" {
		where += " AND " + keyLike(agentID, needle, arg)
	}
	if q.Text != "" {
		from += ", (SELECT " + textQuery(q.Text, arg) + " AS q) AS t"
		where += " AND m.fts @@ t.q"
		score = "ts_rank(m.fts, t.q)"
	}
	return db.searchMemories(ctx, from, where, score, args)
}

// keyLike is the condition that the key holds needle, in the expression
// of memory_search_key_trgm_idx.
func keyLike(agentID, needle string, arg func(any) string) string {
	return "(m.agent_id || ' ' || m.key_lower) LIKE " + arg(likeEscaper.Replace(agentID)+" %"+likeEscaper.Replace(needle)+"%")
}

// searchMemories runs a search statement: the keys and scores of the rows
// of from that where admits, best score first, then by key, at most $3.
func (db *DB) searchMemories(ctx context.Context, from, where, score string, args []any) ([]cairn.MemoryMatch, error) {
	// Planned for the values at hand, not as a prepared statement: a
	// generic plan, blind to the pattern, read the trigram index for a
	// one-letter needle (45 ms where the agent's keys take 1 ms).
	args = append([]any{pgx.QueryExecModeExec}, args...)
	rows, err := db.pool.Query(ctx, "SELECT m.key, ("+score+")::float8 AS score FROM "+from+" WHERE "+where+
		" ORDER BY score DESC, m.key LIMIT $3", args...)
	if err != nil {
		return nil, mapErr(err, "search memories")
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (cairn.MemoryMatch, error) {
		var mm cairn.MemoryMatch
		err := r.Scan(&mm.Key, &mm.Score)
		return mm, err
	})
	if err != nil {
		return nil, mapErr(err, "search memories")
	}
	return out, nil
}

// textQuery is the SQL of the tsquery of a full-text query, its pieces
// passed through arg: the query's words and "quoted phrases" (each one
// parsed and normalized by websearch_to_tsquery in the configuration
// memory_text) joined by OR, as bleve's match query joins its terms, so
// that a memory holding some of the words is found and ts_rank ranks
// those holding more of them, and more often, first; each -word or
// -"phrase" must not appear; "or" between words is what they are joined
// by anyway. With all words joined by AND (websearch_to_tsquery of the
// whole query), 5 of the 14 natural-language queries of the relevance
// corpus (cmd/cairn/testdata/relevance) found anything, against 14 of 14
// for bleve; joined by OR, 14 of 14.
func textQuery(text string, arg func(any) string) string {
	var pos, neg []string
	for _, tok := range queryTokens(text) {
		switch {
		case strings.EqualFold(tok, "or"):
		case len(tok) > 1 && tok[0] == '-':
			neg = append(neg, tok[1:])
		default:
			pos = append(pos, tok)
		}
	}
	if len(pos) == 0 {
		return "''::tsquery" // matches nothing
	}
	parse := func(tok string) string { return "websearch_to_tsquery('memory_text', " + arg(tok) + ")" }
	q := make([]string, len(pos))
	for i, tok := range pos {
		q[i] = parse(tok)
	}
	out := "(" + strings.Join(q, " || ") + ")"
	for _, tok := range neg {
		out += " && !!" + parse(tok)
	}
	return out
}

// queryTokens splits a query at white space, except inside double quotes:
// a quoted phrase (with its quotes, and a leading - when it has one) is
// one token; an unclosed quote runs to the end.
func queryTokens(text string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, r := range text {
		switch {
		case r == '"':
			quoted = !quoted
			cur.WriteRune(r)
		case unicode.IsSpace(r) && !quoted:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// UnindexedMemoryVersions pages through memory_versions_unindexed_idx, 256
// versions at a time, calling fn outside any query.
func (db *DB) UnindexedMemoryVersions(ctx context.Context, fn func(m *cairn.Memory, v *cairn.MemoryVersion) error) error {
	afterAgent, afterID := "", ""
	for {
		rows, err := db.pool.Query(ctx, `SELECT v.agent_id, v.id, m.head, v.record FROM memory_versions v
			JOIN memories m ON m.agent_id = v.agent_id AND m.id = v.memory_id
			WHERE v.fts IS NULL AND (v.agent_id, v.id) > ($1, $2) ORDER BY v.agent_id, v.id LIMIT 256`, afterAgent, afterID)
		if err != nil {
			return mapErr(err, "read unindexed memory versions")
		}
		type item struct{ hd, vd []byte }
		var page []item
		for rows.Next() {
			var it item
			if err := rows.Scan(&afterAgent, &afterID, &it.hd, &it.vd); err != nil {
				rows.Close()
				return mapErr(err, "read unindexed memory versions")
			}
			page = append(page, it)
		}
		if err := rows.Err(); err != nil {
			return mapErr(err, "read unindexed memory versions")
		}
		for _, it := range page {
			m, v, err := decodeItem(it.hd, it.vd)
			if err != nil {
				return err
			}
			if err := fn(m, v); err != nil {
				return err
			}
		}
		if len(page) < 256 {
			return nil
		}
	}
}

// SetMemoryText sets the version's tsvector and, in the same transaction
// when the version is the latest, its memory's, with key_lower (which a
// memory stored before key_lower existed has from SQL's lower()).
func (db *DB) SetMemoryText(ctx context.Context, agentID, versionID string, text *string) error {
	if !cairn.ValidID(versionID) || !validText(agentID) {
		return store.MemoryNotFound()
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var memoryID string
		var version int
		if err := tx.QueryRow(ctx, `UPDATE memory_versions SET fts = `+ftsOf("$3")+` WHERE agent_id = $1 AND id = $2
			RETURNING memory_id, version`, agentID, versionID, searchText(text)).Scan(&memoryID, &version); err != nil {
			return memErr(err, "index memory version")
		}
		m, err := memHead(ctx, tx, agentID, memoryID, true)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE memories SET key_lower = $3,
			fts = CASE WHEN latest = $4 THEN (SELECT fts FROM memory_versions WHERE agent_id = $1 AND id = $5) ELSE fts END
			WHERE agent_id = $1 AND id = $2`, agentID, memoryID, strings.ToLower(m.Key), version, versionID)
		return mapErr(err, "index memory")
	})
}
