package memory_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/memory"
)

// TestContentUnderTheVersionsOwnBlob: each version's content is stored
// under agents/{agentId}/v/{versionId}, so two agents using one key, and a
// blob a crashed write left under the spec's blob name, never share or
// block a name; blobs are created, never replaced.
func TestContentUnderTheVersionsOwnBlob(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	s, blobs := f.s, f.blobs
	// What a write that crashed between its blob and its record left
	// behind, under the spec's blob name of agent a's first version of k.
	orphan := "agents/a/memory/semantic/k/v1"
	if _, err := blobs.Put(ctx, orphan, bytes.NewReader([]byte("orphan")), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	views := map[string]*memory.View{}
	for _, agent := range []string{"a", "b"} {
		content := "note of " + agent
		v, err := s.Create(ctx, agent, &memory.Write{Type: "semantic", Key: "k", Content: &content})
		if err != nil {
			t.Fatalf("create for %s: %v", agent, err)
		}
		if want := "agents/" + agent + "/v/" + v.Version.ID; v.Version.BlobKey != want {
			t.Fatalf("BlobKey of %s's version = %q, want %q", agent, v.Version.BlobKey, want)
		}
		if v.Version.BlobName != "memory/semantic/k/v1" {
			t.Fatalf("BlobName = %q, the spec's name must not change", v.Version.BlobName)
		}
		views[agent] = v
	}
	for agent, v := range views {
		got, err := s.Get(ctx, agent, v.Version.ID, true, "")
		if err != nil || string(got.Content) != "note of "+agent {
			t.Fatalf("content of %s's memory: %q, %v", agent, got.Content, err)
		}
	}
	if b, _ := f.blob(t, orphan); string(b) != "orphan" {
		t.Fatalf("the blob under the spec's name was changed to %q", b)
	}
	// Deleting the memory removes its own blob only.
	if _, _, err := s.Delete(ctx, "a", views["a"].Version.ID, nil, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := blobs.Stat(ctx, views["a"].Version.BlobKey); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("blob of the deleted version: %v", err)
	}
	if _, err := blobs.Stat(ctx, orphan); err != nil {
		t.Fatalf("the orphan went with a's delete: %v", err)
	}
}

// TestVersionWrittenBeforeBlobKey: a version stored with no BlobKey (written
// before it existed) reads its content from the spec's blob name under the
// agent's folder, and its delete removes that blob.
func TestVersionWrittenBeforeBlobKey(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	s, db, blobs, now := f.s, f.db, f.blobs, t0
	m := &cairn.Memory{ID: cairn.NewID(), AgentID: "a", Type: "semantic", Key: "old", Visibility: "private",
		Tags: []string{}, CreatedAt: now, UpdatedAt: now}
	v := &cairn.MemoryVersion{ID: cairn.NewID(), MemoryID: m.ID, Version: 1, BlobName: "memory/semantic/old/v1",
		SizeBytes: 3, CreatedAt: now}
	if _, err := blobs.Put(ctx, "agents/a/memory/semantic/old/v1", bytes.NewReader([]byte("old")), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateMemoryVersion(ctx, m, v, nil, nil); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, "a", v.ID, true, "")
	if err != nil || string(got.Content) != "old" {
		t.Fatalf("content of a version without BlobKey: %q, %v", got.Content, err)
	}
	if _, _, err := s.Delete(ctx, "a", v.ID, nil, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := blobs.Stat(ctx, "agents/a/memory/semantic/old/v1"); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("blob of the deleted version without BlobKey: %v", err)
	}
}
