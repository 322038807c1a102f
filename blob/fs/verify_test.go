package fs

import (
	"bytes"
	"context"
	"io"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// settledStore is a store whose files count as settled shortly after their
// last change, so that tests need not wait a second.
func settledStore(t *testing.T) *Store {
	s, _ := newTestStore(t)
	s.settle = 20 * time.Millisecond
	return s
}

// settleFile waits until the content file of name was last changed longer
// ago than the store's settle time.
func settleFile(t *testing.T, s *Store, name string) {
	t.Helper()
	for {
		fi, err := os.Stat(contentPath(t, s, name))
		if err != nil {
			t.Fatal(err)
		}
		st, ok := stampOf(fi)
		if !ok {
			t.Skip("no change time on this system")
		}
		if time.Since(time.Unix(0, st.Ctime)) > 2*s.settle {
			return
		}
		time.Sleep(s.settle)
	}
}

// openWhole opens name and reads it whole; kernel tells whether Open
// handed out the content file itself (a verified one).
func openWhole(t *testing.T, s *Store, name string) (data []byte, kernel bool, err error) {
	t.Helper()
	rc, _, err := s.Open(context.Background(), name)
	if err != nil {
		return nil, false, err
	}
	defer rc.Close()
	_, kernel = rc.(syscall.Conn)
	data, err = io.ReadAll(rc)
	return data, kernel, err
}

func verifiedMark(t *testing.T, s *Store, name string) *stamp {
	t.Helper()
	rec, err := readRecord(s.locate(name))
	if err != nil {
		t.Fatal(err)
	}
	return rec.Verified
}

// TestVerifiedOnFirstFullRead: a settled content file read whole through
// the digests is marked verified in its sidecar (also when its open handle
// dates from before it settled), and from then on (also after a restart)
// Open hands out the file itself, with the same bytes.
func TestVerifiedOnFirstFullRead(t *testing.T) {
	s := settledStore(t)
	data := putRandom(t, s, "x", 5*chunkSize+7)
	s.settle = time.Hour
	if _, _, err := openWhole(t, s, "x"); err != nil { // opens the handle
		t.Fatal(err)
	}
	s.settle = 20 * time.Millisecond
	settleFile(t, s, "x")
	if got, kernel, err := openWhole(t, s, "x"); err != nil || kernel || !bytes.Equal(got, data) {
		t.Fatalf("first read: %d bytes, file %v, %v", len(got), kernel, err)
	}
	if verifiedMark(t, s, "x") == nil {
		t.Fatal("not marked verified after a full read")
	}
	again, err := New(s.Root(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []*Store{s, again} {
		if got, kernel, err := openWhole(t, st, "x"); err != nil || !kernel || !bytes.Equal(got, data) {
			t.Fatalf("read of a verified file: %d bytes, file %v, %v", len(got), kernel, err)
		}
	}
}

// TestPartialReadDoesNotVerify: a range, or a whole read of a file
// changed too recently, marks nothing.
func TestPartialReadDoesNotVerify(t *testing.T) {
	s := settledStore(t)
	putRandom(t, s, "x", 5*chunkSize)
	settleFile(t, s, "x")
	if _, err := readRange(s, "x", 0, 4*chunkSize); err != nil {
		t.Fatal(err)
	}
	s.settle = time.Hour
	if _, _, err := openWhole(t, s, "x"); err != nil {
		t.Fatal(err)
	}
	if m := verifiedMark(t, s, "x"); m != nil {
		t.Fatalf("marked verified: %+v", m)
	}
}

// TestChangedVerifiedFileNotServed: a verified file changed on disk is no
// longer handed to the kernel; its damaged chunk fails the read
// (EUPSTREAM).
func TestChangedVerifiedFileNotServed(t *testing.T) {
	s := settledStore(t)
	putRandom(t, s, "x", 5*chunkSize)
	settleFile(t, s, "x")
	if _, _, err := openWhole(t, s, "x"); err != nil || verifiedMark(t, s, "x") == nil {
		t.Fatalf("not verified: %v", err)
	}
	time.Sleep(2 * s.settle) // past the kernel's clock granularity
	corrupt(t, s, "x", 3*chunkSize+1)
	if got, _, err := openWhole(t, s, "x"); !cairn.IsCode(err, cairn.EUPSTREAM) {
		t.Fatalf("read of a damaged file: %d bytes, %v; want EUPSTREAM", len(got), err)
	}
	rc, _ := openHead(t, s, "x", 1000)
	if _, err := rc.(syscall.Conn).SyscallConn(); err == nil {
		t.Fatal("the damaged file handed to the kernel")
	}
	if _, err := io.ReadAll(rc); !cairn.IsCode(err, cairn.EUPSTREAM) {
		t.Fatalf("read on after the refusal: %v; want EUPSTREAM", err)
	}
}

// TestScrub: the scrub marks settled files verified and takes the mark off
// a file whose bytes changed under an unchanged stamp (the disk returning
// other bytes), after which every read fails; a small budget resumes
// where the previous call stopped.
func TestScrub(t *testing.T) {
	s := settledStore(t)
	s.scrub.bytes = 1 // one file per call
	names := []string{"a", "b", "c"}
	for _, n := range names {
		putRandom(t, s, n, 3*chunkSize)
		putRandom(t, s, "small-"+n, 10) // inline: verified on every read, not scrubbed
	}
	for _, n := range names {
		settleFile(t, s, n)
	}
	for range names {
		if bad, err := s.Scrub(t.Context(), time.Time{}); err != nil || bad != 0 {
			t.Fatalf("Scrub: %d damaged, %v", bad, err)
		}
	}
	for _, n := range names {
		if verifiedMark(t, s, n) == nil {
			t.Fatalf("%s not verified by the scrub", n)
		}
	}
	// Damage b's bytes, then restamp its sidecar as if they had changed
	// without the file's stamp.
	corrupt(t, s, "b", 10)
	l := s.locate("b")
	rec, _ := readRecord(l)
	fi, _ := os.Stat(l.blobPath(rec.Gen))
	st, _ := stampOf(fi)
	rec.Verified = &st
	if _, err := writeRecord(l, rec); err != nil {
		t.Fatal(err)
	}
	s.forget(l.key)
	damaged := 0
	for range names {
		bad, err := s.Scrub(t.Context(), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		damaged += bad
	}
	if damaged != 1 || verifiedMark(t, s, "b") != nil {
		t.Fatalf("scrub found %d damaged, b marked %v", damaged, verifiedMark(t, s, "b"))
	}
	if _, kernel, err := openWhole(t, s, "b"); kernel || !cairn.IsCode(err, cairn.EUPSTREAM) {
		t.Fatalf("read of b after the scrub: file %v, %v; want EUPSTREAM", kernel, err)
	}
}

// TestVerifiedReaderOwnFile: after SyscallConn (the kernel is to send the
// rest) the reader goes on from the same position in a file of its own.
func TestVerifiedReaderOwnFile(t *testing.T) {
	s := settledStore(t)
	data := putRandom(t, s, "x", 3*chunkSize+5)
	settleFile(t, s, "x")
	if _, _, err := openWhole(t, s, "x"); err != nil {
		t.Fatal(err)
	}
	rc, head := openHead(t, s, "x", 1000)
	if _, err := rc.(syscall.Conn).SyscallConn(); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(rc)
	if err != nil || !bytes.Equal(append(head, rest...), data) {
		t.Fatalf("%d bytes after SyscallConn, %v", len(rest), err)
	}
	if _, err := rc.Seek(7, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(rc, head[:10]); err != nil || !bytes.Equal(head[:10], data[7:17]) {
		t.Fatalf("read after Seek: %v", err)
	}
}

// openHead opens name and reads its first n bytes; the reader is closed
// at the end of the test.
func openHead(t *testing.T, s *Store, name string, n int) (blob.ReadSeekCloser, []byte) {
	t.Helper()
	rc, _, err := s.Open(t.Context(), name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rc.Close() })
	head := make([]byte, n)
	if _, err := io.ReadFull(rc, head); err != nil {
		t.Fatal(err)
	}
	return rc, head
}
