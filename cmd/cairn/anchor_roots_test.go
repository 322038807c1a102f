package main

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestListRoots: the contract gets the version's two roots; a version
// stored with one tree is anchored only when that tree held no community
// listing (its root is then the sanctions root).
func TestListRoots(t *testing.T) {
	s, c := "0x"+strings.Repeat("11", 32), "0x"+strings.Repeat("22", 32)
	var sb, cb, zero [32]byte
	for i := range sb {
		sb[i], cb[i] = 0x11, 0x22
	}
	for _, tc := range []struct {
		name            string
		v               cairn.ListVersion
		sanctions, comm [32]byte
		ok              bool
	}{
		{"TwoTrees", cairn.ListVersion{Root: s, SanctionsRoot: s, CommunityRoot: c}, sb, cb, true},
		{"OneTreeNoCommunity", cairn.ListVersion{Root: s, Sources: map[string]cairn.SourceVersion{"gov_sdn": {}}}, sb, zero, true},
		{"OneTreeWithCommunity", cairn.ListVersion{Root: s, Sources: map[string]cairn.SourceVersion{"gov_sdn": {}, "community": {Entries: 1}}}, zero, zero, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sanctions, comm, ok := listRoots(tc.v)
			if sanctions != tc.sanctions || comm != tc.comm || ok != tc.ok {
				t.Fatalf("listRoots: %x %x %v", sanctions, comm, ok)
			}
		})
	}
}
