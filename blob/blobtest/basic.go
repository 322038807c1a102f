package blobtest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"
	"testing/iotest"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

func testPutGet(t *testing.T, s blob.Store, ctl Control) {
	sizes := []int{0, 1, 3, 1000, 65535, 65536, 65537, 200000}
	for _, n := range sizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			name := fmt.Sprintf("putget/%d/blob", n)
			data := content(uint64(n), n)
			if n == 3 {
				data = []byte("abc") // a known digest
			}
			exp := time.Date(2100, 1, 2, 3, 4, 5, 6, time.UTC)
			info := put(t, s, name, data, blob.PutOptions{ContentType: "application/x-test", ExpiresAt: exp})
			want := blob.Info{Name: name, Size: int64(n), SHA256: hexSHA(data),
				ContentType: "application/x-test", CreatedAt: info.CreatedAt, ExpiresAt: exp}
			wantInfo(t, "Put", info, want)
			if n == 3 && info.SHA256 != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
				t.Fatalf("SHA256 of \"abc\" = %s", info.SHA256)
			}
			if info.CreatedAt.IsZero() {
				t.Fatal("Put: CreatedAt is zero")
			}
			if ctl.Now != nil && !info.CreatedAt.Equal(ctl.Now(s)) {
				t.Fatalf("CreatedAt %v, want the store's time %v", info.CreatedAt, ctl.Now(s))
			}
			got, ginfo, err := get(t, s, name, 0, -1)
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			wantBytes(t, "Get", got, data)
			wantInfo(t, "Get", ginfo, want)
			sinfo, err := s.Stat(t.Context(), name)
			if err != nil {
				t.Fatalf("Stat: %v", err)
			}
			wantInfo(t, "Stat", sinfo, want)
			rc, oinfo, err := s.Open(t.Context(), name)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer rc.Close()
			wantInfo(t, "Open", oinfo, want)
		})
	}
	t.Run("NoExpiry", func(t *testing.T) {
		info := put(t, s, "putget/forever", []byte("x"), blob.PutOptions{})
		if !info.ExpiresAt.IsZero() {
			t.Fatalf("ExpiresAt %v, want zero", info.ExpiresAt)
		}
		if st, err := s.Stat(t.Context(), "putget/forever"); err != nil || !st.ExpiresAt.IsZero() {
			t.Fatalf("Stat: %+v, %v; want zero ExpiresAt", st, err)
		}
	})
}

// testReaderShapes puts content through readers that return it in odd
// pieces, and one that returns the last bytes together with io.EOF.
func testReaderShapes(t *testing.T, s blob.Store, _ Control) {
	data := content(5, 150001)
	readers := map[string]func() io.Reader{
		"OneByte":  func() io.Reader { return iotest.OneByteReader(bytes.NewReader(data[:3000])) },
		"Half":     func() io.Reader { return iotest.HalfReader(bytes.NewReader(data)) },
		"DataErr":  func() io.Reader { return iotest.DataErrReader(bytes.NewReader(data)) },
		"TinyLast": func() io.Reader { return iotest.DataErrReader(iotest.HalfReader(bytes.NewReader(data))) },
	}
	for name, mk := range readers {
		t.Run(name, func(t *testing.T) {
			want := data
			if name == "OneByte" {
				want = data[:3000]
			}
			info, err := s.Put(t.Context(), "shapes/"+name, mk(), blob.PutOptions{})
			if err != nil {
				t.Fatalf("Put: %v", err)
			}
			if info.Size != int64(len(want)) || info.SHA256 != hexSHA(want) {
				t.Fatalf("Put Info %+v, want size %d", info, len(want))
			}
			wantBytes(t, "Get", mustGet(t, s, "shapes/"+name), want)
		})
	}
}

// testReaderError: a failing reader fails the Put, its error stays in the
// chain, and nothing (or the previous blob) stays visible.
func testReaderError(t *testing.T, s blob.Store, _ Control) {
	r := iotest.TimeoutReader(bytes.NewReader(content(1, 100000)))
	_, err := s.Put(t.Context(), "fail/new", r, blob.PutOptions{})
	if !errors.Is(err, iotest.ErrTimeout) {
		t.Fatalf("Put with a failing reader: %v, want iotest.ErrTimeout in the chain", err)
	}
	_, err = s.Stat(t.Context(), "fail/new")
	wantCode(t, "Stat after failed Put", err, cairn.ENOTFOUND)

	old := content(2, 1000)
	put(t, s, "fail/old", old, blob.PutOptions{})
	r = iotest.TimeoutReader(bytes.NewReader(content(3, 100000)))
	if _, err := s.Put(t.Context(), "fail/old", r, blob.PutOptions{}); err == nil {
		t.Fatal("Put with a failing reader succeeded")
	}
	wantBytes(t, "Get after failed replace", mustGet(t, s, "fail/old"), old)
}

func testReplace(t *testing.T, s blob.Store, _ Control) {
	v1, v2 := content(1, 100000), content(2, 777)
	put(t, s, "replace/x", v1, blob.PutOptions{ContentType: "text/plain"})
	info := put(t, s, "replace/x", v2, blob.PutOptions{ContentType: "image/png",
		ExpiresAt: time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC), Replace: true})
	wantBytes(t, "Get after replace", mustGet(t, s, "replace/x"), v2)
	st, err := s.Stat(t.Context(), "replace/x")
	if err != nil {
		t.Fatalf("Stat: %v", err)
	}
	wantInfo(t, "Stat after replace", st, info)
	if st.Size != 777 || st.ContentType != "image/png" || st.SHA256 != hexSHA(v2) {
		t.Fatalf("Stat after replace: %+v", st)
	}
}
