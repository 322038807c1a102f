package vector

import "slices"

// Holds reports whether the key of meta has a vector in each of spaces,
// indexed with meta (the same version and filters).
func (x *Index) Holds(agent string, meta Meta, spaces []string) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	for _, name := range spaces {
		f := x.spaceOf(agent, name, 0, "", false)
		if f == nil {
			return false
		}
		i, ok := f.slot[meta.Key]
		if !ok {
			return false
		}
		got := &f.metas[i]
		if got.VersionID != meta.VersionID || got.Type != meta.Type || got.Visibility != meta.Visibility || !slices.Equal(got.Tags, meta.Tags) {
			return false
		}
	}
	return true
}

// EachKey calls fn with every agent and key that has a vector.
func (x *Index) EachKey(fn func(agent, key string)) {
	if x == nil {
		return
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	for agent, spaces := range x.agents {
		for _, f := range spaces {
			for k := range f.slot {
				fn(agent, k)
			}
		}
	}
}
