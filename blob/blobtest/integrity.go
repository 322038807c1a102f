package blobtest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

// testCorruption damages one stored byte and checks that no read returns
// it: a read that covers it fails with EUPSTREAM, and whatever bytes came
// before the failure are good. A read that does not cover it returns good
// bytes or fails the same way.
func testCorruption(t *testing.T, s blob.Store, ctl Control) {
	if ctl.Corrupt == nil {
		t.Skip("the backend gives no way to damage stored bytes")
	}
	const size, bad = 300000, 200000
	data := content(11, size)
	name := "corrupt/blob"
	put(t, s, name, data, blob.PutOptions{})
	ctl.Corrupt(t, s, name, bad)

	cases := []struct {
		what    string
		off, n  int64
		open    bool // read through Open + Seek instead of Get
		covered bool // the range includes the damaged byte
	}{
		{"Get whole", 0, -1, false, true},
		{"Get range", bad - 1000, 2000, false, true},
		{"Get range at the byte", bad, 1, false, true},
		{"Get to end", bad - 10, -1, false, true},
		{"Get range before", 0, 100, false, false},
		{"Get range after", bad + 70000, 1000, false, false},
		{"Open whole", 0, -1, true, true},
		{"Open seek", bad - 10, 20, true, true},
		{"Open seek before", 1000, 1000, true, false},
	}
	for _, c := range cases {
		t.Run(c.what, func(t *testing.T) {
			end := int64(size)
			if c.n >= 0 {
				end = c.off + c.n
			}
			got, err := readRange(t, s, name, c.off, c.n, c.open)
			if err == nil {
				if c.covered || !bytes.Equal(got, data[c.off:end]) {
					t.Fatalf("read of %d bytes succeeded over damaged content", len(got))
				}
				return
			}
			wantCode(t, c.what, err, cairn.EUPSTREAM)
			if !bytes.Equal(got, data[c.off:c.off+int64(len(got))]) {
				t.Fatalf("%d bytes returned before the error include damaged ones", len(got))
			}
		})
	}
}

func readRange(t *testing.T, s blob.Store, name string, off, n int64, open bool) ([]byte, error) {
	if !open {
		rc, _, err := s.Get(t.Context(), name, off, n)
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		var buf bytes.Buffer
		_, err = io.Copy(&buf, rc)
		return buf.Bytes(), err
	}
	rc, _, err := s.Open(t.Context(), name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	if _, err := rc.Seek(off, io.SeekStart); err != nil {
		return nil, err
	}
	var r io.Reader = rc
	if n >= 0 {
		r = io.LimitReader(rc, n)
	}
	// Small reads, as http.ServeContent does them.
	var buf bytes.Buffer
	_, err = io.CopyBuffer(&buf, struct{ io.Reader }{r}, make([]byte, 32<<10))
	return buf.Bytes(), err
}

// endless yields bytes for ever (well, up to limit) and calls cancel once
// it has yielded after bytes.
type endless struct {
	n, after, limit int64
	cancel          func()
}

func (e *endless) Read(p []byte) (int, error) {
	if e.n >= e.limit {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), e.limit-e.n)]
	for i := range p {
		p[i] = byte(e.n + int64(i))
	}
	e.n += int64(len(p))
	if e.n >= e.after && e.cancel != nil {
		e.cancel()
		e.cancel = nil
	}
	return len(p), nil
}

// testCancelPut: Put stops when its context is done, with the context's
// error, and leaves no new blob (and the previous one intact).
func testCancelPut(t *testing.T, s blob.Store, _ Control) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := s.Put(ctx, "cancel/before", bytes.NewReader([]byte("x")), blob.PutOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Put with a cancelled context: %v, want context.Canceled", err)
	}
	_, err = s.Stat(t.Context(), "cancel/before")
	wantCode(t, "Stat after cancelled Put", err, cairn.ENOTFOUND)

	old := content(12, 5000)
	put(t, s, "cancel/during", old, blob.PutOptions{})
	ctx, cancel = context.WithCancel(t.Context())
	defer cancel()
	r := &endless{after: 256 << 10, limit: 256 << 20, cancel: cancel}
	_, err = s.Put(ctx, "cancel/during", r, blob.PutOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Put cancelled midway: %v, want context.Canceled", err)
	}
	if r.n >= r.limit {
		t.Fatal("Put read the whole stream after its context was cancelled")
	}
	wantBytes(t, "Get after cancelled replace", mustGet(t, s, "cancel/during"), old)
}
