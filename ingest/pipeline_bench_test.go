package ingest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-dev/cairn"
	blobfs "github.com/cairn-dev/cairn/blob/fs"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store/pebble"
)

// writeSyntheticList writes n random EVM addresses, one per line.
func writeSyntheticList(b *testing.B, path string, n int) {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	r := rand.New(rand.NewPCG(1, uint64(n)))
	for range n {
		fmt.Fprintf(w, "0x%016x%016x%08x\n", r.Uint64(), r.Uint64(), r.Uint32())
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
}

// BenchmarkPipelineFirstVersion measures what an operator waits for at
// start with a large list: fetch (a local file), snapshot, parse,
// normalise, store the first list version in Pebble, build the index and
// both trees. One op is one whole run on a fresh store.
//
//	go test -run '^$' -bench PipelineFirstVersion -benchtime 3x ./ingest/
func BenchmarkPipelineFirstVersion(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			list := filepath.Join(b.TempDir(), "eth.txt")
			writeSyntheticList(b, list, n)
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				dir := b.TempDir()
				blobs, err := blobfs.New(filepath.Join(dir, "blobs"), blobfs.Options{})
				if err != nil {
					b.Fatal(err)
				}
				db, err := pebble.Open(filepath.Join(dir, "store"), pebble.Options{})
				if err != nil {
					b.Fatal(err)
				}
				p := &Pipeline{Sources: []Source{{Name: "list:ethereum", Location: list}}, Blobs: blobs,
					Holder: &screening.Holder{}, Clock: cairn.SystemClock{}, Store: db,
					Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
				b.StartTimer()
				res, err := p.Run(context.Background())
				if err != nil || res.Leaves != n {
					b.Fatalf("run: %+v %v", res, err)
				}
				b.StopTimer()
				db.Close()
				b.StartTimer()
			}
		})
	}
}
