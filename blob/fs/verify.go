package fs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/cairn-dev/cairn/blob"
)

// Verified content files. Every read through a reader hashes the chunks it
// returns, which for a whole large file costs more than sending it. So a
// content file whose every chunk once matched its digest is remembered as
// verified, durably, in its sidecar, with the stamp of the file at the
// time (device, inode, size, status change time), and the reader Open
// returns for it (verifiedReader) lets the kernel send the file as it is
// for as long as its stamp is unchanged: any write to the file,
// truncation, replacement or restore from a copy changes it, and the reads
// go through the digests again (and fail on damaged chunks).
//
// A file is marked verified only when it was left unchanged for settle
// before the read that verified it began: the kernel stamps changes with a
// coarse clock, so a write made just after the file was verified could
// otherwise leave the same stamp. What changes no stamp (the disk itself
// returning other bytes) is what the scrub (Scrub) looks for: it re-reads
// the content files in the background, a budget of bytes per call, and
// takes the mark off a file whose chunks no longer match, after which
// every read of it fails.

// stamp identifies the state of a content file.
type stamp struct {
	Dev   uint64 `json:"dev"`
	Ino   uint64 `json:"ino"`
	Size  int64  `json:"size"`
	Ctime int64  `json:"ctime"` // status change time, ns since the epoch
}

// defaultSettle is how long a content file must have been unchanged before
// a read that verifies it began, for that read to mark it verified.
const defaultSettle = time.Second

// DefaultScrubBytes is how many bytes of content one Scrub call verifies
// by default.
const DefaultScrubBytes = 256 << 20

// verifiedReader is what Open returns for a content file marked verified:
// it reads through the verifying reader (a short Range costs what it
// did: its chunk comes from the read cache, or is hashed), until it is
// asked for the file itself (SyscallConn: the kernel is to send the rest,
// as net.TCPConn.ReadFrom does for a large window). It then opens the file
// for itself, checks that its stamp is still the verified one (else it
// refuses, and the copy goes on through the verifying reader), and
// positions it where the reader is, so that its offset is its own. Not
// safe for concurrent use.
type verifiedReader struct {
	*reader
	path string
	want stamp    // the verified stamp
	own  *os.File // opened by SyscallConn; then the reader reads it
}

// openVerified wraps r in a verifiedReader when rec is marked verified;
// nil otherwise.
func openVerified(l loc, rec *record, r *reader) *verifiedReader {
	if rec.Verified == nil || rec.isInline() {
		return nil
	}
	return &verifiedReader{reader: r, path: l.blobPath(rec.Gen), want: *rec.Verified}
}

// unchanged reports whether f's stamp is want.
func unchanged(f *os.File, want stamp) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	st, ok := stampOf(fi)
	return ok && st == want
}

func (v *verifiedReader) Read(p []byte) (int, error) {
	if v.own != nil {
		return v.own.Read(p)
	}
	return v.reader.Read(p)
}

func (v *verifiedReader) Seek(offset int64, whence int) (int64, error) {
	if v.own != nil {
		return v.own.Seek(offset, whence)
	}
	return v.reader.Seek(offset, whence)
}

// SyscallConn opens the file for this reader (once), checks its stamp,
// positions it where the reader is and returns its raw connection; an
// error (the reader then goes on verifying) when the file is no longer the
// verified one.
func (v *verifiedReader) SyscallConn() (syscall.RawConn, error) {
	if v.own == nil {
		if v.reader.f == nil {
			return nil, os.ErrClosed
		}
		f, err := os.Open(v.path)
		if err != nil {
			return nil, err
		}
		if !unchanged(f, v.want) {
			f.Close()
			return nil, errCorrupt("file")
		}
		if _, err := f.Seek(v.reader.pos, io.SeekStart); err != nil {
			f.Close()
			return nil, err
		}
		v.own = f
	}
	return v.own.SyscallConn()
}

// Close releases the files; closing twice is harmless.
func (v *verifiedReader) Close() error {
	var err error
	if v.own != nil {
		err = v.own.Close()
		v.own = nil
	}
	if cerr := v.reader.Close(); err == nil {
		err = cerr
	}
	return err
}

// markVerified records that the content file of generation gen of l,
// stamped st when a read that then verified every chunk began at since,
// is verified: only when the file was settled by then and its stamp is
// still st (nothing wrote to it during the read).
func (s *Store) markVerified(l loc, gen string, st stamp, since time.Time) {
	if st.Ctime >= since.Add(-s.settle).UnixNano() {
		return
	}
	lk := &s.locks[l.stripe]
	lk.Lock()
	defer lk.Unlock()
	rec, err := readRecord(l)
	if err != nil || rec.Gen != gen || rec.isInline() || rec.Verified != nil && *rec.Verified == st {
		return
	}
	fi, err := os.Stat(l.blobPath(gen))
	if err != nil {
		return
	}
	if now, ok := stampOf(fi); !ok || now != st {
		return
	}
	rec.Verified = &st
	s.forget(l.key)
	_, _ = writeRecord(l, rec) // not marked: the next full read or scrub tries again
}

// unmarkVerified takes the mark off the content file of generation gen of
// l, whose chunks no longer match: every read checks them again.
func (s *Store) unmarkVerified(l loc, gen string) error {
	lk := &s.locks[l.stripe]
	lk.Lock()
	defer lk.Unlock()
	rec, err := readRecord(l)
	if err != nil || rec.Gen != gen || rec.Verified == nil {
		return nil
	}
	rec.Verified = nil
	s.forget(l.key)
	_, err = writeRecord(l, rec)
	return err
}

// Scrub verifies stored content files against their chunk digests, in the
// order of their keys, resuming where the previous call stopped, until it
// has read ScrubBytes (Options) or gone round the whole store once. A file
// that verifies is marked verified (when settled); one that does not loses
// its mark, so that no read serves it. It returns how many damaged files
// it found. The service runs it with its local sweeps.
func (s *Store) Scrub(ctx context.Context, _ time.Time) (int, error) {
	s.scrub.mu.Lock()
	defer s.scrub.mu.Unlock()
	budget, damaged := s.scrub.bytes, 0
	for visited := 0; visited <= 256 && budget > 0; visited++ {
		dir := filepath.Join(s.root, fanout(s.scrub.dir))
		entries, err := os.ReadDir(dir)
		if err != nil {
			return damaged, err
		}
		var keys []string
		for _, e := range entries {
			if key, _, kind := parseFile(e.Name()); kind == kindMeta && key > s.scrub.key {
				keys = append(keys, key)
			}
		}
		slices.Sort(keys)
		for _, key := range keys {
			if err := ctx.Err(); err != nil {
				return damaged, err
			}
			n, bad, err := s.scrubKey(loc{dir: dir, key: key, stripe: s.scrub.dir})
			if err != nil {
				return damaged, err
			}
			if bad {
				damaged++
			}
			s.scrub.key, budget = key, budget-n
			if budget <= 0 {
				return damaged, nil
			}
		}
		s.scrub.dir, s.scrub.key = (s.scrub.dir+1)%256, ""
	}
	return damaged, nil
}

// scrubState is where Scrub resumes.
type scrubState struct {
	mu    sync.Mutex
	bytes int64  // budget of one call
	dir   int    // fan-out directory
	key   string // last key verified in it
}

// scrubKey verifies the content file of the blob stored under l and marks
// or unmarks it; it returns the bytes it read and whether it was damaged.
func (s *Store) scrubKey(l loc) (int64, bool, error) {
	lk := &s.locks[l.stripe]
	lk.RLock()
	rec, err := readRecord(l)
	lk.RUnlock()
	if err != nil || rec.isInline() {
		return 0, false, nil // absent, damaged (left to an operator) or inline (verified on every read)
	}
	since := time.Now()
	f, err := os.Open(l.blobPath(rec.Gen))
	if err != nil {
		return 0, false, nil // replaced meanwhile, or missing (every read fails)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, false, nil
	}
	st, stampOK := stampOf(fi)
	n, ok := verifyAll(f, rec)
	switch {
	case !ok:
		return n, true, s.unmarkVerified(l, rec.Gen)
	case stampOK:
		s.markVerified(l, rec.Gen, st, since)
	}
	return n, false, nil
}

// verifyAll reads f whole and reports whether every chunk matches rec.
func verifyAll(f *os.File, rec *record) (int64, bool) {
	bufp := chunkPool.Get().(*[]byte)
	defer chunkPool.Put(bufp)
	buf := *bufp
	if int64(len(buf)) < rec.ChunkSize {
		buf = make([]byte, rec.ChunkSize)
	}
	var read int64
	for ci := int64(0); ci*rec.ChunkSize < rec.Size; ci++ {
		n := blob.ChunkLen(rec.Size, rec.ChunkSize, ci)
		m, err := f.ReadAt(buf[:n], ci*rec.ChunkSize)
		read += int64(m)
		if err != nil {
			return read, false
		}
		if sum := sha256.Sum256(buf[:n]); !bytes.Equal(sum[:], blob.ChunkSum(rec.sums, ci)) {
			return read, false
		}
	}
	var one [1]byte
	if m, _ := f.ReadAt(one[:], rec.Size); m != 0 { // longer than recorded
		return read, false
	}
	return read, true
}
