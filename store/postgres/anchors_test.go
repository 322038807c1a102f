package postgres

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestMigrationAnchorExclusionRoots: migration 0011 gives a record written
// before exclusion roots existed the zero ones, and leaves a record that
// has them as it is.
func TestMigrationAnchorExclusionRoots(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	const target = "1337:0x5fbdb2315678afecb367f032d93f642f64180aa3"
	legacy := `{"target":"` + target + `","listVersion":1,"sanctionsRoot":"0xaa","communityRoot":"0xbb","status":"synced","nonce":0,"blockNumber":3}`
	if _, err := db.Pool().Exec(ctx, "INSERT INTO anchors (target, list_version, record) VALUES ($1, 1, $2)", target, legacy); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateAnchor(ctx, cairn.Anchor{Target: target, ListVersion: 2, Status: "pending", SanctionsRoot: "0xaa",
		CommunityRoot: "0xbb", ExclusionRoot: "0xcc", CommunityExclusionRoot: "0xdd"}); err != nil {
		t.Fatal(err)
	}
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	var sql string
	for _, m := range ms {
		if m.version == 11 {
			sql = m.sql
		}
	}
	if !strings.Contains(sql, "exclusionRoot") {
		t.Fatal("migration 0011 not found")
	}
	// Run it again on these records (Open applied it to an empty table).
	if _, err := db.Pool().Exec(ctx, sql); err != nil {
		t.Fatal(err)
	}
	as, err := db.ListAnchors(ctx, target, 0, 10)
	if err != nil || len(as) != 2 {
		t.Fatalf("ListAnchors = %+v, %v", as, err)
	}
	zero := "0x" + strings.Repeat("0", 64)
	if a := as[1]; a.ExclusionRoot != zero || a.CommunityExclusionRoot != zero || a.SanctionsRoot != "0xaa" || a.Status != "synced" || a.BlockNumber != 3 {
		t.Fatalf("legacy record after the migration: %+v", a)
	}
	if a := as[0]; a.ExclusionRoot != "0xcc" || a.CommunityExclusionRoot != "0xdd" {
		t.Fatalf("a record with exclusion roots was changed: %+v", a)
	}
}
