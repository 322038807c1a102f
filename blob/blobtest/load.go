package blobtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/blob"
)

// testLarge round-trips a 10 MB blob (the upload limit) and checks digests.
func testLarge(t *testing.T, s blob.Store, _ Control) {
	data := content(42, 10<<20)
	info := put(t, s, "large/blob", data, blob.PutOptions{})
	if info.Size != 10<<20 || info.SHA256 != hexSHA(data) {
		t.Fatalf("Put Info %+v, want size %d sha256 %s", info, 10<<20, hexSHA(data))
	}
	rc, _, err := s.Get(t.Context(), "large/blob", 0, -1)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	h := sha256.New()
	n, err := io.Copy(h, rc)
	rc.Close()
	if err != nil || n != 10<<20 {
		t.Fatalf("read %d bytes, %v", n, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != info.SHA256 {
		t.Fatalf("sha256 of Get = %s, want %s", got, info.SHA256)
	}
	off := int64(5<<20 + 123)
	got, _, err := get(t, s, "large/blob", off, 1<<20)
	if err != nil {
		t.Fatalf("Get range: %v", err)
	}
	wantBytes(t, "Get range", got, data[off:off+1<<20])
}

// testConcurrentPuts writes distinct names from many goroutines, then reads
// them all back from many goroutines at once.
func testConcurrentPuts(t *testing.T, s blob.Store, _ Control) {
	const n = 24
	blobs := make([][]byte, n)
	for i := range blobs {
		blobs[i] = content(uint64(100+i), 1000+i*13000)
	}
	name := func(i int) string { return fmt.Sprintf("conc/%d/blob", i) }
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if _, err := s.Put(t.Context(), name(i), bytes.NewReader(blobs[i]), blob.PutOptions{}); err != nil {
				t.Errorf("Put(%q): %v", name(i), err)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for r := range 3 * n {
		wg.Go(func() {
			i := r % n
			off := int64(len(blobs[i]) / 3)
			got, info, err := get(t, s, name(i), off, -1)
			if err != nil {
				t.Errorf("Get(%q): %v", name(i), err)
				return
			}
			if string(got) != string(blobs[i][off:]) || info.SHA256 != hexSHA(blobs[i]) {
				t.Errorf("Get(%q): wrong content or digest", name(i))
			}
		})
	}
	wg.Wait()
}

// testConcurrentReplace replaces one name again and again while readers
// read it: each read returns exactly one complete version, and the Info it
// comes with describes that version.
func testConcurrentReplace(t *testing.T, s blob.Store, _ Control) {
	const versions = 8
	bySum := map[string][]byte{}
	var vs [][]byte
	for i := range versions {
		v := content(uint64(200+i), 90000+i*20000)
		vs = append(vs, v)
		bySum[hexSHA(v)] = v
	}
	put(t, s, "replace/hot", vs[0], blob.PutOptions{})
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for reads := 0; ; reads++ {
				select {
				case <-done:
					if reads > 0 {
						return
					}
				default:
				}
				got, info, err := get(t, s, "replace/hot", 0, -1)
				if err != nil {
					t.Errorf("Get during replace: %v", err)
					return
				}
				want, ok := bySum[info.SHA256]
				if !ok || string(got) != string(want) || hexSHA(got) != info.SHA256 {
					t.Errorf("Get during replace returned %d bytes that are not the version its Info names", len(got))
					return
				}
			}
		})
	}
	for round := range 3 {
		for i := range versions {
			if _, err := s.Put(t.Context(), "replace/hot", bytes.NewReader(vs[(i+round)%versions]), blob.PutOptions{Replace: true}); err != nil {
				t.Errorf("Put: %v", err)
			}
		}
	}
	close(done)
	wg.Wait()
}
