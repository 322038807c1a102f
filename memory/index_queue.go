package memory

import "time"

// flushEvery bounds how long a queued full-text update waits when no
// search forces it.
const flushEvery = 50 * time.Millisecond

func (x *Index) loop() {
	defer close(x.done)
	for {
		select {
		case <-x.stop:
			x.flush()
			return
		case <-x.kick:
		}
		select {
		case <-x.stop:
		case <-time.After(flushEvery):
		}
		x.flush()
	}
}

func (x *Index) enqueue(id string, d *indexDoc) {
	x.pmu.Lock()
	x.pending[id] = d
	x.pmu.Unlock()
	select {
	case x.kick <- struct{}{}:
	default:
	}
}

// flush applies the queued updates as one batch.
func (x *Index) flush() {
	x.fmu.Lock()
	defer x.fmu.Unlock()
	x.pmu.Lock()
	todo := x.pending
	if len(todo) == 0 {
		x.pmu.Unlock()
		return
	}
	x.pending = map[string]*indexDoc{}
	x.pmu.Unlock()
	b := x.idx.NewBatch()
	for id, d := range todo {
		if d == nil {
			b.Delete(id)
		} else if err := b.Index(id, *d); err != nil {
			continue
		}
	}
	_ = x.idx.Batch(b)
}
