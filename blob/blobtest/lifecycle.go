package blobtest

import (
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
)

func testDelete(t *testing.T, s blob.Store, _ Control) {
	ctx := t.Context()
	put(t, s, "del/a", []byte("a"), blob.PutOptions{})
	put(t, s, "del/b", []byte("b"), blob.PutOptions{})
	if err := s.Delete(ctx, "del/a"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	_, err := s.Stat(ctx, "del/a")
	wantCode(t, "Stat after Delete", err, cairn.ENOTFOUND)
	_, _, err = s.Get(ctx, "del/a", 0, -1)
	wantCode(t, "Get after Delete", err, cairn.ENOTFOUND)
	_, _, err = s.Open(ctx, "del/a")
	wantCode(t, "Open after Delete", err, cairn.ENOTFOUND)
	for _, name := range []string{"del/a", "del/never"} {
		if err := s.Delete(ctx, name); err != nil {
			t.Fatalf("Delete(%q) of an absent blob: %v", name, err)
		}
	}
	wantBytes(t, "other blob", mustGet(t, s, "del/b"), []byte("b"))
	put(t, s, "del/a", []byte("again"), blob.PutOptions{})
	wantBytes(t, "Get after re-Put", mustGet(t, s, "del/a"), []byte("again"))
}

func testNotFound(t *testing.T, s blob.Store, _ Control) {
	ctx := t.Context()
	put(t, s, "dir/child", []byte("c"), blob.PutOptions{})
	for _, name := range []string{"absent", "dir", "dir/child/grandchild", "dir/chil"} {
		wantGone(t, s, name)
		err := s.ExtendExpiry(ctx, name, time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC))
		wantCode(t, "ExtendExpiry "+name, err, cairn.ENOTFOUND)
	}
}
