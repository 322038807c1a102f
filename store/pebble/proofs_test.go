package pebble_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn/store/pebble"
)

// TestProofValuesSeparated checks that proof records go to blob files,
// that nothing else does, and that the records read back the same after
// flushes, a full compaction and a reopen.
func TestProofValuesSeparated(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := pebble.Open(dir, pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const n, size = 300, 8 << 10
	docs := map[string][]byte{}
	for i := range n {
		id, doc := fmt.Sprintf("proof-%03d", i), make([]byte, size)
		rand.Read(doc)
		if err := db.PutProof(ctx, id, doc); err != nil {
			t.Fatal(err)
		}
		docs[id] = doc
		if i%100 == 99 {
			if err := db.Pebble().Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A large value of another keyspace stays in its sstable.
	other := bytes.Repeat([]byte{0x5a}, 64<<10)
	if err := db.Pebble().Set([]byte("mem/large"), other, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.Pebble().Flush(); err != nil {
		t.Fatal(err)
	}
	if err := db.Pebble().Compact(ctx, []byte{0}, []byte{0xff}, true); err != nil {
		t.Fatal(err)
	}
	m := db.Pebble().Metrics()
	if got := m.BlobFiles.ReferencedValueSize; got != n*size {
		t.Fatalf("%d bytes of values in blob files, want the %d of the proofs alone", got, n*size)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if db, err = pebble.Open(dir, pebble.Options{}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for id, want := range docs {
		got, err := db.Proof(ctx, id)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("Proof(%s) after reopen: %d bytes, %v", id, len(got), err)
		}
	}
	v, closer, err := db.Pebble().Get([]byte("mem/large"))
	if err != nil || !bytes.Equal(v, other) {
		t.Fatalf("the other value after reopen: %v", err)
	}
	closer.Close()
}
