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
// memory_search_fts_idx (searchText), keys through key_lower (searchKeys),
// tags through memory_search_tags_idx and expiry from expires_ns, checked
// in each statement.
func (db *DB) SearchMemories(ctx context.Context, agentID string, q cairn.MemorySearchQuery) ([]cairn.MemoryMatch, error) {
	if q.Limit < 1 {
		return nil, cairn.Errorf(cairn.EINVALID, "A search needs a positive limit.")
	}
	if !validText(agentID, q.Text, q.Key) {
		return []cairn.MemoryMatch{}, nil // nothing stored can match
	}
	needle := strings.ToLower(q.Key)
	if needle != "" && q.Text == "" {
		return db.searchKeys(ctx, agentID, needle, q)
	}
	if q.Text != "" {
		return db.searchText(ctx, agentID, needle, q)
	}
	st, where, err := newSearchStmt(agentID, q, q.Limit)
	if err != nil {
		return nil, err
	}
	return db.searchMemories(ctx, "memory_search m", where, "1", st.args)
}

// searchStmt gathers the arguments of a search statement.
type searchStmt struct{ args []any }

// arg adds an argument and returns its placeholder.
func (st *searchStmt) arg(v any) string {
	st.args = append(st.args, v)
	return "$" + strconv.Itoa(len(st.args))
}

// newSearchStmt starts a statement's arguments and conditions: the agent
// ($1), the expiry ($2), the limit ($3) and the tags.
func newSearchStmt(agentID string, q cairn.MemorySearchQuery, limit int) (*searchStmt, string, error) {
	st := &searchStmt{args: []any{agentID, nanos(q.Now), limit}}
	where := "m.agent_id = $1 AND (m.expires_ns IS NULL OR m.expires_ns > $2)"
	if len(q.Tags) > 0 {
		tags, err := json.Marshal(q.Tags)
		if err != nil {
			return nil, "", err
		}
		where += " AND m.tags @> " + st.arg(string(tags)) + "::jsonb"
	}
	return st, where, nil
}

// keyOrder is the expression of memory_search_key_idx: the key's order,
// in which the reads that stop at a bound go.
const keyOrder = "(key || '')"

// keyWindow is how many of the agent's first keys (through
// memory_search_key_idx alone) a key search reads for the keys that hold
// its needle before it asks the trigram index: a needle in 1 key of 500
// fills a limit of 20 from there, without the recheck of most of the table
// that the trigram index needs for a common needle.
var keyWindow = 10000

// searchKeys answers a key search without text. The keys that start with
// the needle come first, through memory_search_key_lower_idx: they outrank
// every other match, so when there are enough of them they are the answer.
// The keys that hold it elsewhere (score 1) come by key, read in key order
// through memory_search_key_idx alone and stopped at the limit (no index
// orders the keys that hold a substring): without pg_trgm, all the keys
// (as far as needed); with it, the agent's first keyWindow keys, and when
// they hold too few matches, every key through memory_search_key_trgm_idx
// (a rare needle). With tags (which memory_search_key_idx lacks), the
// tags index and the trigram index or the agent's keys.
func (db *DB) searchKeys(ctx context.Context, agentID, needle string, q cairn.MemorySearchQuery) ([]cairn.MemoryMatch, error) {
	starts := likeEscaper.Replace(needle) + "%"
	st, where, err := newSearchStmt(agentID, q, q.Limit)
	if err != nil {
		return nil, err
	}
	out, err := db.searchMemories(ctx, "memory_search m", where+" AND m.key_lower LIKE "+st.arg(starts),
		"CASE WHEN m.key_lower = "+st.arg(needle)+" THEN 3 ELSE 2 END", st.args)
	if err != nil || len(out) == q.Limit {
		return out, err
	}
	limit := q.Limit - len(out)
	trgm, err := db.keyTrigram(ctx)
	if err != nil {
		return nil, err
	}
	if len(q.Tags) == 0 {
		bound := " OFFSET 0" // read as far as needed, in key order
		if trgm {
			bound = " LIMIT " + strconv.Itoa(keyWindow)
		}
		// The key comes out as keyOrder, so that the statement's order
		// by key is the order of the scan and stops it at the limit.
		keys := "(SELECT agent_id, " + keyOrder + " AS key, key_lower, expires_ns FROM memory_search WHERE agent_id = $1 ORDER BY " +
			keyOrder + bound + ") m"
		st, where, _ := newSearchStmt(agentID, q, limit)
		rest, err := db.searchMemories(ctx, keys, where+" AND m.key_lower NOT LIKE "+st.arg(starts)+
			" AND m.key_lower LIKE "+st.arg("%"+likeEscaper.Replace(needle)+"%"), "1", st.args)
		if err != nil || len(rest) == limit || !trgm {
			return append(out, rest...), err
		}
	}
	st, where, err = newSearchStmt(agentID, q, limit)
	if err != nil {
		return nil, err
	}
	where += " AND m.key_lower NOT LIKE " + st.arg(starts) + " AND " + keyLike(agentID, needle, st.arg)
	rest, err := db.searchMemories(ctx, "memory_search m", where, "1", st.args)
	return append(out, rest...), err
}

// keyTrigram reports whether memory_search_key_trgm_idx exists (whether
// migration 0015 found pg_trgm), asked once.
func (db *DB) keyTrigram(ctx context.Context) (bool, error) {
	switch db.trgm.Load() {
	case 1:
		return false, nil
	case 2:
		return true, nil
	}
	var ok bool
	if err := db.pool.QueryRow(ctx, "SELECT to_regclass('memory_search_key_trgm_idx') IS NOT NULL").Scan(&ok); err != nil {
		return false, mapErr(err, "search memories")
	}
	db.trgm.Store(map[bool]int32{false: 1, true: 2}[ok])
	return ok, nil
}

// keyLike is the condition that the key holds needle, in the expression
// of memory_search_key_trgm_idx.
func keyLike(agentID, needle string, arg func(any) string) string {
	return "(m.agent_id || ' ' || m.key_lower) LIKE " + arg(likeEscaper.Replace(agentID)+" %"+likeEscaper.Replace(needle)+"%")
}

// maxRanked bounds the memories one full-text statement reads for each
// of its groups (below): ts_rank needs each memory's tsvector (a GIN
// index keeps no term frequencies), and a word held by every memory of an
// agent of 100,000 took 55 ms to rank.
var maxRanked = 2000

// searchText answers a search with text (and a key needle, tags), in up
// to two statements, each ranking by ts_rank of the whole query
// (textQuery), then by key.
//
// The first ranks the memories holding every word of the query: all of
// them when at most maxRanked do, else the first maxRanked by key. When
// they fill the limit (or the query has a single word) they are the
// answer. Else the second ranks the memories holding some of the words
// but not all, after the first's: for each word, those holding it (all of
// them when at most maxRanked do, else the first maxRanked by key), so
// that the memories of a rare word are ranked however common the other
// words are. A memory holding all the words thus comes before one holding
// fewer; for two words of one lexeme each that is ts_rank's order anyway
// (a memory holding both, once each, ranks above one holding either any
// number of times). When no word is held by more than maxRanked memories,
// every memory holding a word is ranked, as without the bound.
func (db *DB) searchText(ctx context.Context, agentID, needle string, q cairn.MemorySearchQuery) ([]cairn.MemoryMatch, error) {
	pos, neg := queryWords(q.Text)
	if len(pos) == 0 {
		return []cairn.MemoryMatch{}, nil // nothing to find
	}
	// stmt is the statement of the memories held by each of the
	// tsqueries that group returns (of the argument pieces it is given),
	// first maxRanked by key for each, ranked together.
	stmt := func(limit int, group func(st *searchStmt) []string) (*searchStmt, string, string, error) {
		st, where, err := newSearchStmt(agentID, q, limit)
		if err != nil {
			return nil, "", "", err
		}
		if needle != "" {
			where += " AND " + keyLike(agentID, needle, st.arg)
		}
		rank := textQuery(pos, neg, " || ", st.arg)
		var subs []string
		for _, cond := range group(st) {
			subs = append(subs, "(SELECT m.key, m.fts FROM memory_search m WHERE "+where+" AND "+cond+
				" ORDER BY (m.key || '') LIMIT "+strconv.Itoa(maxRanked)+")")
		}
		return st, "(" + strings.Join(subs, " UNION ") + ") m", "ts_rank(m.fts, " + rank + ")", nil
	}
	all := func(st *searchStmt) string { return "m.fts @@ " + textQuery(pos, neg, " && ", st.arg) }
	st, from, score, err := stmt(q.Limit, func(st *searchStmt) []string { return []string{all(st)} })
	if err != nil {
		return nil, err
	}
	out, err := db.searchMemories(ctx, from, "true", score, st.args)
	if err != nil || len(out) == q.Limit || len(pos) == 1 {
		return out, err
	}
	st, from, score, err = stmt(q.Limit-len(out), func(st *searchStmt) []string {
		not := " AND NOT " + all(st)
		conds := make([]string, len(pos))
		for i, w := range pos {
			conds[i] = "m.fts @@ " + textQuery([]string{w}, neg, "", st.arg) + not
		}
		return conds
	})
	if err != nil {
		return nil, err
	}
	rest, err := db.searchMemories(ctx, from, "true", score, st.args)
	return append(out, rest...), err
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

// queryWords splits a full-text query into its words and "quoted phrases"
// that must appear (pos) and those after a - that must not (neg); "or"
// between words is what they are joined by anyway.
func queryWords(text string) (pos, neg []string) {
	for _, tok := range queryTokens(text) {
		switch {
		case strings.EqualFold(tok, "or"):
		case len(tok) > 1 && tok[0] == '-':
			neg = append(neg, tok[1:])
		default:
			pos = append(pos, tok)
		}
	}
	return pos, neg
}

// textQuery is the SQL of the tsquery of a full-text query, its pieces
// passed through arg: the query's words and "quoted phrases" pos (each
// one parsed and normalized by websearch_to_tsquery in the configuration
// memory_text) joined by join, " || " or " && ", and none of neg. The
// ranking query joins them by OR, as bleve's match query joins its terms,
// so that a memory holding some of the words is found and ts_rank ranks
// those holding more of them, and more often, first. With all words
// joined by AND alone (websearch_to_tsquery of the whole query), 5 of the
// 14 natural-language queries of the relevance corpus
// (cmd/cairn/testdata/relevance) found anything, against 14 of 14 for
// bleve; joined by OR, 14 of 14.
func textQuery(pos, neg []string, join string, arg func(any) string) string {
	parse := func(tok string) string { return "websearch_to_tsquery('memory_text', " + arg(tok) + ")" }
	q := make([]string, len(pos))
	for i, tok := range pos {
		q[i] = parse(tok)
	}
	out := "(" + strings.Join(q, join) + ")"
	for _, tok := range neg {
		out += " && !!" + parse(tok)
	}
	return "(" + out + ")"
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
