package memory

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/memory/vector"
)

// Index is the search index of memories: every agent's keys, held in
// memory for substring search, and a bleve full-text index of the latest
// version of every memory whose content is plain text (encrypted memories,
// whose plaintext the service never sees, and binary content are not
// indexed). It is derived state: Rebuild fills it from the store at start,
// and every write updates it after its commit, so a crash can never leave
// it disagreeing with the store.
type Index struct {
	idx bleve.Index

	mu   sync.RWMutex
	keys map[string]map[string]keyEntry // agent -> key -> what key search reads

	// Full-text updates are queued and applied in batches (one bleve
	// segment per batch, not per write) by a background loop, and by every
	// search before it runs.
	pmu      sync.Mutex
	pending  map[string]*indexDoc // doc id -> new content, nil: delete
	fmu      sync.Mutex           // one flush at a time, in queue order
	kick     chan struct{}
	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}
}

type keyEntry struct {
	lower string
	tags  []string
}

type indexDoc struct {
	Agent   string `json:"agent"`
	Content string `json:"content"`
}

// NewIndex returns an empty index. With dir, the full-text index lives in
// that directory (bleve's scorch engine, which merges its segments); the
// directory is emptied first, as the index is rebuilt at every start.
// Without dir it is held in memory (for tests and small stores).
func NewIndex(dir string) (*Index, error) {
	kw := bleve.NewKeywordFieldMapping()
	kw.Store, kw.IncludeInAll, kw.DocValues = false, false, false
	txt := bleve.NewTextFieldMapping()
	txt.Store, txt.IncludeInAll, txt.IncludeTermVectors = false, false, false
	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt("agent", kw)
	dm.AddFieldMappingsAt("content", txt)
	im := bleve.NewIndexMapping()
	im.DefaultMapping = dm
	im.StoreDynamic, im.IndexDynamic, im.DocValuesDynamic = false, false, false
	var idx bleve.Index
	var err error
	if dir == "" {
		idx, err = bleve.NewMemOnly(im)
	} else {
		if err = os.RemoveAll(dir); err == nil {
			// unsafe_batch: a write does not wait for the index to reach the
			// disk; the index is rebuilt from the store at start anyway.
			// The persister naps 2 s between rounds (default: 1 ms), so that
			// it writes and fsyncs its segments and root a few times a
			// minute rather than after every 50 ms batch: each of its
			// fsyncs is a device flush that memory writes would queue
			// behind (create p99 at 500/s: 10-14.6 ms -> 5.7-7.2 ms, see
			// BENCHMARKS.md). Searches read the in-memory snapshot, so
			// they see every flushed batch at once all the same.
			idx, err = bleve.NewUsing(dir, im, scorch.Name, scorch.Name, map[string]any{"unsafe_batch": true,
				"scorchPersisterOptions": map[string]any{"PersisterNapTimeMSec": 2000, "PersisterNapUnderNumFiles": 1000}})
		}
	}
	if err != nil {
		return nil, fmt.Errorf("memory: full-text index: %w", err)
	}
	x := &Index{idx: idx, keys: map[string]map[string]keyEntry{}, pending: map[string]*indexDoc{},
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go x.loop()
	return x, nil
}

// Close releases the full-text index.
func (x *Index) Close() error {
	x.stopOnce.Do(func() { close(x.stop) })
	<-x.done
	return x.idx.Close()
}

func (x *Index) addKey(m *cairn.Memory) {
	x.mu.Lock()
	defer x.mu.Unlock()
	ks := x.keys[m.AgentID]
	if ks == nil {
		ks = map[string]keyEntry{}
		x.keys[m.AgentID] = ks
	}
	ks[m.Key] = keyEntry{lower: strings.ToLower(m.Key), tags: append([]string(nil), m.Tags...)}
}

// matchKeys returns the agent's keys that carry every tag, scored by
// keyScore against needle.
func (x *Index) matchKeys(agent, needle string, tags []string) []candidate {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []candidate
	for k, e := range x.keys[agent] {
		if sc := lowerKeyScore(e.lower, needle); sc > 0 && vector.HasTags(e.tags, tags) {
			out = append(out, candidate{k, sc})
		}
	}
	return out
}

// docID names a memory in the index: agent ids hold no slash.
func docID(agent, key string) string { return agent + "/" + key }

func splitDocID(id string) (string, string) {
	agent, key, _ := strings.Cut(id, "/")
	return agent, key
}

func indexable(v *cairn.MemoryVersion) bool {
	return v.EncryptionProvider == nil && v.ContentEncoding == ""
}

// put indexes the content of the memory's latest version (or drops the
// memory from the index when that content is not indexable).
func (x *Index) put(m *cairn.Memory, v *cairn.MemoryVersion, content []byte) {
	if x == nil {
		return
	}
	x.addKey(m)
	if !indexable(v) {
		x.enqueue(docID(m.AgentID, m.Key), nil)
		return
	}
	x.enqueue(docID(m.AgentID, m.Key), &indexDoc{Agent: m.AgentID, Content: string(content)})
}

// remove drops a memory from the index.
func (x *Index) remove(agent, key string) {
	if x == nil {
		return
	}
	x.mu.Lock()
	delete(x.keys[agent], key)
	x.mu.Unlock()
	x.enqueue(docID(agent, key), nil)
}

// search returns the keys of the agent's memories matching text, best
// first, with their scores.
func (x *Index) search(ctx context.Context, agent, text string, size int) ([]string, []float64, error) {
	agentQ := bleve.NewTermQuery(agent)
	agentQ.SetField("agent")
	textQ := bleve.NewMatchQuery(text)
	textQ.SetField("content")
	x.flush() // every acknowledged write is searchable
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(agentQ, textQ), size, 0, false)
	res, err := x.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, nil, fmt.Errorf("memory: full-text search: %w", err)
	}
	keys := make([]string, 0, len(res.Hits))
	scores := make([]float64, 0, len(res.Hits))
	for _, h := range res.Hits {
		_, k := splitDocID(h.ID)
		keys = append(keys, k)
		scores = append(scores, h.Score)
	}
	return keys, scores, nil
}

// Rebuild indexes the latest version of every memory in the store (full
// text and vectors), reading contents through s, and returns how many
// contents it gave the full-text index. Run it once at start, before
// serving. With a store that searches itself (no Index), the full-text
// part is giving the store the text of the versions it lacks (see
// fillSearchText): those are counted instead.
func (s *Service) Rebuild(ctx context.Context) (int, error) {
	filled, err := s.fillSearchText(ctx)
	if err != nil {
		return filled, err
	}
	if s.Index == nil && s.Vectors == nil {
		return filled, nil
	}
	var b *bleve.Batch
	if s.Index != nil {
		b = s.Index.idx.NewBatch()
	}
	n := filled
	err = s.Store.ScanLatestMemories(ctx, func(m *cairn.Memory, v *cairn.MemoryVersion) error {
		var content []byte
		if indexable(v) {
			// unreadable content is reported on read, not here
			content, _ = s.content(ctx, m, v)
		}
		s.putVectors(m, v, content, true)
		if s.Index == nil {
			return nil
		}
		s.Index.addKey(m)
		if content == nil {
			return nil
		}
		if err := b.Index(docID(m.AgentID, m.Key), indexDoc{Agent: m.AgentID, Content: string(content)}); err != nil {
			return err
		}
		if n++; b.Size() >= 1000 {
			if err := s.Index.idx.Batch(b); err != nil {
				return err
			}
			b.Reset()
		}
		return nil
	})
	if err != nil || b == nil {
		return n, err
	}
	return n, s.Index.idx.Batch(b)
}
