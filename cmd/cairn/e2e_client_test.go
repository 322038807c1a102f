package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	cairn "github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/client"
	"github.com/cairn-dev/cairn/merkle"
)

// TestE2EClient drives the Go client against a real server on the embedded
// store: every typed call checks what the server stored or charged.
func TestE2EClient(t *testing.T) {
	ts, _ := complianceServer(t)
	ctx := context.Background()
	pub := client.New(ts.base, "", client.WithAdminToken(admin), client.WithStrictDecoding())
	reg, err := pub.RegisterAgent(ctx, "client-e2e")
	if err != nil || reg.APIKey == "" || reg.DeveloperID == "" || reg.DepositInfo.Address != reg.AptosAddress {
		t.Fatalf("register: %+v %v", reg, err)
	}
	c := pub.WithAPIKey(reg.APIKey)
	if g, err := c.GrantCredits(ctx, reg.DeveloperID, 400, "client e2e"); err != nil || g.CreditBalance != 500 ||
		g.Transaction.Kind != "grant" || g.Transaction.Amount != 400 || g.Transaction.Reason != "client e2e" {
		t.Fatalf("grant: %+v %v", g, err)
	}
	balance := func(t *testing.T) int64 {
		t.Helper()
		b, err := c.GetBalance(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return b.CreditBalance
	}
	start := balance(t)
	if start != 500 {
		t.Fatalf("balance %d, want 100 + 400", start)
	}
	imp := 0.9
	m, err := c.CreateMemory(ctx, client.MemoryWrite{Key: "notes/alpha", Content: "the quick brown fox", Importance: &imp,
		ExpiresIn: "1d", Metadata: &client.MemoryMetadata{Tags: []string{"animal"}}}, "idem-alpha")
	if err != nil || m.Version != 1 || m.Key != "notes/alpha" || m.Importance != 0.9 || m.ExpiresAt == nil {
		t.Fatalf("create: %+v %v", m, err)
	}
	again, err := c.CreateMemory(ctx, client.MemoryWrite{Key: "notes/alpha", Content: "the quick brown fox", Importance: &imp,
		ExpiresIn: "1d", Metadata: &client.MemoryMetadata{Tags: []string{"animal"}}}, "idem-alpha")
	if err != nil || again.ID != m.ID {
		t.Fatalf("idempotent replay: %+v %v", again, err)
	}
	if b := balance(t); b != start-5 {
		t.Fatalf("balance %d after a create and its replay, want %d", b, start-5)
	}
	_, err = c.CreateMemory(ctx, client.MemoryWrite{Key: "notes/alpha", Content: "dup"}, "")
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Status != 409 || ce.Code != cairn.ECONFLICT || ce.RequestID == "" {
		t.Fatalf("duplicate key: %v", err)
	}
	for _, k := range []string{"notes/beta", "notes/gamma"} {
		if _, err := c.CreateMemory(ctx, client.MemoryWrite{Key: k, Content: "lazy dog " + k}, ""); err != nil {
			t.Fatal(err)
		}
	}

	got, err := c.GetMemory(ctx, m.ID)
	if err != nil || got.Content == nil || *got.Content != "the quick brown fox" {
		t.Fatalf("get: %+v %v", got, err)
	}
	v2, err := c.PutMemory(ctx, m.ID, client.MemoryWrite{Content: "the quick red fox"}, `"1"`)
	if err != nil || v2.Version != 2 || v2.MemoryID != m.ID {
		t.Fatalf("put: %+v %v", v2, err)
	}
	if _, err := c.PutMemory(ctx, m.ID, client.MemoryWrite{Content: "stale"}, `"1"`); !client.IsCode(err, cairn.EPRECONDITION) {
		t.Fatalf("stale If-Match: %v", err)
	}
	h, err := c.MemoryHistory(ctx, m.ID)
	if err != nil || h.TotalVersions != 2 || len(h.Versions) != 2 {
		t.Fatalf("history: %+v %v", h, err)
	}
	sr, err := c.SearchMemories(ctx, client.SearchRequest{ContentQuery: "fox"})
	if err != nil || sr.Count != 1 || sr.Results[0].ID != v2.ID || sr.Results[0].StoredBytes == nil || sr.Results[0].CreatedAt.IsZero() {
		t.Fatalf("search: %+v %v", sr, err)
	}
	vr, err := c.VectorSearchMemories(ctx, client.VectorSearchRequest{Query: "lazy dog", Limit: 5})
	if err != nil || vr.Count == 0 || vr.Space != "hash-v1" || !strings.HasPrefix(vr.Results[0].Key, "notes/") {
		t.Fatalf("vector search: %+v %v", vr, err)
	}
	re, err := c.ReembedMemories(ctx, "hash-v1")
	if err != nil || re.Space != "hash-v1" || re.Count != 3 {
		t.Fatalf("reembed: %+v %v", re, err)
	}
	if _, err := c.ReembedMemories(ctx, "telepathy"); !client.IsCode(err, cairn.EINVALID) {
		t.Fatalf("reembed in an unknown space: %v", err)
	}

	var keys []string
	for mem, err := range c.AllMemories(ctx, client.ListMemoriesParams{Limit: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, mem.Key)
	}
	if len(keys) != 3 {
		t.Fatalf("cursor walk returned %v, want the 3 memories", keys)
	}

	dl, err := c.DownloadMemory(ctx, v2.ID)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(dl.Body)
	dl.Body.Close()
	if string(body) != "the quick red fox" {
		t.Fatalf("download %q", body)
	}
	pin, err := c.PinMemory(ctx, m.ID)
	if err != nil || !pin.Pinned {
		t.Fatalf("pin: %+v %v", pin, err)
	}
	if im, err := c.SetMemoryImportance(ctx, m.ID, 0.1); err != nil || im.Importance != 0.1 || im.MemoryID != m.ID || im.Key != m.Key {
		t.Fatalf("importance: %+v %v", im, err)
	}
	if _, err := c.SetMemoryImportance(ctx, m.ID, 2); !client.IsCode(err, cairn.EINVALID) {
		t.Fatalf("importance 2: %v", err)
	}
	beta := mustFindKey(t, c, "notes/beta")
	ttl, err := c.MemoryTtlAlerts(ctx, client.TTLAlertsRequest{Within: "3650d", RenewIDs: []string{beta}, RenewExpiresIn: "2d"})
	if err != nil || ttl.RenewedCount != 1 {
		t.Fatalf("ttl alerts: %+v %v", ttl, err)
	}
	if _, err := c.ExpiringMemories(ctx, "24h", "", 10); err != nil {
		t.Fatal(err)
	}
	up, err := c.UploadMemory(ctx, client.UploadFile{Name: "a.bin", Data: []byte{0, 1, 2, 3}},
		map[string]string{"type": "file", "key": "files/a"}, "")
	if err != nil || up.SizeBytes == 0 {
		t.Fatalf("upload: %+v %v", up, err)
	}
	bulk, err := c.BulkCreateMemories(ctx, []client.MemoryWrite{{Key: "bulk/1", Content: "one"}, {Key: "notes/beta", Content: "dup"}}, "")
	if err != nil || bulk.Succeeded != 1 || bulk.Failed != 1 || bulk.Results[1].Status != 409 {
		t.Fatalf("bulk: %+v %v", bulk, err)
	}
	del, err := c.BulkDeleteMemories(ctx, []string{*bulk.Results[0].ID, cairn.NewID()})
	if err != nil || del.Succeeded != 1 || del.Results[1].Status != 404 {
		t.Fatalf("bulk delete: %+v %v", del, err)
	}
	d, err := c.DeleteMemory(ctx, up.ID, "")
	if err != nil || !d.MemoryDeleted {
		t.Fatalf("delete: %+v %v", d, err)
	}
	if _, err := c.GetMemory(ctx, up.ID); !client.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("deleted memory: %v", err)
	}

	// Another agent's memory is a 404 to this agent.
	other, err := pub.RegisterAgent(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pub.WithAPIKey(other.APIKey).GetMemory(ctx, m.ID); !client.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("foreign memory: %v", err)
	}

	n := 0
	for e, err := range c.AllAudit(ctx, "write") {
		if err != nil || e.Action != "write" {
			t.Fatalf("audit %+v %v", e, err)
		}
		n++
	}
	if n < 4 {
		t.Fatalf("%d write audit entries", n)
	}
	var sum int64
	var txs int
	for tx, err := range c.AllTransactions(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		sum += tx.Amount
		txs++
	}
	if sum != balance(t) || txs < 5 {
		t.Fatalf("ledger sums to %d over %d transactions, balance %d", sum, txs, balance(t))
	}

	t.Run("Media", func(t *testing.T) {
		data := []byte("0123456789abcdef")
		md, err := c.UploadMedia(ctx, client.UploadFile{Name: "n.txt", ContentType: "text/plain", Data: data}, map[string]string{"title": "digits"})
		if err != nil || md.SizeBytes != 16 || md.Category != "document" {
			t.Fatalf("upload media: %+v %v", md, err)
		}
		pg, err := c.ListMedia(ctx, "", 10, "")
		if err != nil || len(pg.Media) != 1 || pg.Media[0].ID != md.ID {
			t.Fatalf("list media: %+v %v", pg, err)
		}
		if g, err := c.GetMedia(ctx, md.ID); err != nil || *g.Title != "digits" {
			t.Fatalf("get media: %+v %v", g, err)
		}
		s, err := c.StreamMedia(ctx, md.ID, client.RangeOptions{Range: "bytes=2-5"})
		if err != nil {
			t.Fatal(err)
		}
		part, _ := io.ReadAll(s.Body)
		s.Body.Close()
		if s.Status != 206 || string(part) != "2345" || s.ContentRange != "bytes 2-5/16" {
			t.Fatalf("range: %d %q %q", s.Status, part, s.ContentRange)
		}
		hd, err := c.HeadMedia(ctx, md.ID, client.RangeOptions{})
		if err != nil || hd.ContentLength != 16 {
			t.Fatalf("head: %+v %v", hd, err)
		}
		if del, err := c.DeleteMedia(ctx, md.ID); err != nil || !del.Deleted || del.ID != md.ID {
			t.Fatalf("delete media: %+v %v", del, err)
		}
		if _, err := c.GetMedia(ctx, md.ID); !client.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("deleted media: %v", err)
		}
	})

	t.Run("Compliance", func(t *testing.T) {
		sc, err := c.ScreenAddresses(ctx, []client.AddressRef{{Address: tornado, Chain: "ethereum"}}, nil)
		if err != nil || sc.Results[0].Status != "sanctioned" {
			t.Fatalf("screen: %+v %v", sc, err)
		}
		checkScreeningProof(t, sc)
		p, err := pub.GetScreeningProof(ctx, sc.Proof.ScreeningID)
		if err != nil || p.ResultsHash != sc.Proof.ResultsHash || p.MerkleRoot != sc.Proof.MerkleRoot || len(p.Results) != 1 {
			t.Fatalf("proof: %+v %v", p, err)
		}
		checkProofDocument(t, p)
		// The document is signed by the current published key.
		keys, err := pub.GetSigningKeys(ctx)
		if err != nil || len(keys.Keys) != 1 || !keys.Keys[0].Current || p.Signature == nil || p.Signature.KeyID != keys.Keys[0].KeyID {
			t.Fatalf("signing keys %+v %v, document signature %+v", keys, err, p.Signature)
		}
		mp, err := c.GetMerkleProof(ctx, tornado, "ethereum")
		if err != nil || !mp.Sanctioned || mp.Class == nil || *mp.Class != "sanctions" || mp.RateLimit.FreeLimit == 0 {
			t.Fatalf("merkle proof: %+v %v", mp, err)
		}
		if leaf := merkle.LeafHashStrings2(mp.Family, mp.CanonicalAddress); leaf.String() != mp.Leaf ||
			!merkle.Verify(hexBytes32(t, mp.Root), leaf, hashes(t, mp.Proof)) {
			t.Fatalf("the proof of %s does not lead from its leaf to its root: %+v", tornado, mp)
		}
		root, err := c.GetMerkleRoot(ctx)
		if err != nil || root.Root != mp.Root || root.ListVersion != mp.ListVersion || root.SanctionsLeafCount == 0 ||
			root.BuiltAt == nil || root.Anchor.Status != "disabled" {
			t.Fatalf("root: %+v %v", root, err)
		}
		batch, err := c.GetMerkleProofBatch(ctx, []client.AddressRef{{Address: tornado, Chain: "ethereum"}, {Address: "nope", Chain: "ethereum"}}, true)
		if err != nil || len(batch.Results) != 2 || !batch.Results[0].Listed || batch.Results[1].Valid || batch.Results[1].Root != nil ||
			batch.Multiproof == nil || len(batch.Multiproof.Leaves) != 1 || batch.CommunityMultiproof == nil || len(batch.CommunityMultiproof.Leaves) != 0 {
			t.Fatalf("batch: %+v %v", batch, err)
		}
		if ok, err := merkle.VerifyStandardMultiProof(hexBytes32(t, batch.SanctionsRoot), batch.LeafEncoding,
			pairs(batch.Multiproof.Values), hashes(t, batch.Multiproof.Proof), batch.Multiproof.ProofFlags); err != nil || !ok {
			t.Fatalf("the batch multiproof does not verify: %v", err)
		}
		h, err := c.GetListingHistory(ctx, tornado, "ethereum")
		if err != nil || !h.Listed || len(h.Events) == 0 || h.Events[0].Event != "listed" || h.Events[0].Source != "list:ETH" {
			t.Fatalf("history: %+v %v", h, err)
		}
		v, err := c.ListListVersions(ctx, 5, "")
		if err != nil || len(v.Versions) == 0 || v.Versions[0].ListVersion != root.ListVersion || v.Versions[0].Root != root.Root ||
			v.Versions[0].Sources["list:ETH"].SHA256 == nil {
			t.Fatalf("versions: %+v %v", v, err)
		}
		ch, err := c.ListListVersionChanges(ctx, 1, 3, "")
		if err != nil || ch.ListVersion != 1 || len(ch.Changes) != 3 || !ch.HasMore || ch.Changes[0].Change != "added" || ch.Changes[0].Address == "" {
			t.Fatalf("changes of version 1: %+v %v", ch, err)
		}
		if next, err := c.ListListVersionChanges(ctx, 1, 3, *ch.NextCursor); err != nil || len(next.Changes) == 0 || next.Changes[0] == ch.Changes[0] {
			t.Fatalf("next changes of version 1: %+v %v", next, err)
		}
		n := int64(0)
		for lv, err := range c.AllListVersions(ctx) {
			if err != nil || lv.ListVersion != root.ListVersion-n {
				t.Fatalf("version walk: %+v %v", lv, err)
			}
			n++
		}
		if n != root.ListVersion {
			t.Fatalf("walked %d list versions, want %d", n, root.ListVersion)
		}
		st, err := c.ComplianceStats(ctx)
		if err != nil || st.Compliance.TotalAddresses == 0 || st.Compliance.TotalScreenings == 0 ||
			st.Compliance.ListVersion != root.ListVersion || st.Compliance.LastIngestion == nil || st.Compliance.Sources["list:ETH"].Entries == 0 {
			t.Fatalf("stats: %+v %v", st, err)
		}
		rep, err := c.ReportAddress(ctx, client.ReportRequest{Address: "0x00000000000000000000000000000000000000aa", Chain: "ethereum",
			Category: "scam", Reason: "drained a wallet"})
		if err != nil || rep.ReportID == "" || rep.Status != "pending" {
			t.Fatalf("report: %+v %v", rep, err)
		}
		l, err := pub.ListReports(ctx, "pending", 10, "")
		if err != nil || len(l.Reports) != 1 || l.Reports[0].ReportID != rep.ReportID || l.Reports[0].Canonical == "" ||
			l.Reports[0].AgentID != reg.AgentID || l.NextCursor != nil {
			t.Fatalf("list reports: %+v %v", l, err)
		}
		mod, err := pub.RejectReport(ctx, rep.ReportID, "no evidence")
		if err != nil || mod.Action != "reject" || mod.CommunityListed || len(mod.Reports) != 1 || mod.Reports[0].Status != "rejected" {
			t.Fatalf("reject: %+v %v", mod, err)
		}
		for r, err := range pub.AllReports(ctx, "") {
			if err != nil || r.ReportID != rep.ReportID || r.Status != "rejected" || r.Moderation == nil || r.Moderation.Reason != "no evidence" {
				t.Fatalf("report walk: %+v %v", r, err)
			}
		}
	})

	t.Run("System", func(t *testing.T) {
		if h, err := pub.Healthz(ctx); err != nil || h.Status != "ok" {
			t.Fatalf("healthz: %+v %v", h, err)
		}
		if r, err := pub.Readyz(ctx); err != nil || r.Status != "ready" {
			t.Fatalf("readyz: %+v %v", r, err)
		}
		var head struct {
			OpenAPI string `json:"openapi"`
		}
		if doc, err := pub.GetOpenAPI(ctx); err != nil || json.Unmarshal(doc, &head) != nil || head.OpenAPI != "3.1.0" {
			t.Fatalf("openapi: %.40s %v", doc, err)
		}
		if md, err := pub.GetSkill(ctx, true); err != nil || !strings.Contains(md, "/v1/memory") {
			t.Fatalf("skill: %v", err)
		}
		if page, err := pub.GetConsole(ctx); err != nil || !strings.Contains(page, "<title>cairn console</title>") {
			t.Fatalf("console: %.80s %v", page, err)
		}
		if js, err := pub.GetConsoleFile(ctx, "console.js"); err != nil || !strings.Contains(js, "import ") {
			t.Fatalf("console.js: %.80s %v", js, err)
		}
		if _, err := pub.GetConsoleFile(ctx, "nothing.js"); !client.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("a file the console lacks: %v", err)
		}
		if svg, err := pub.GetAsset(ctx, "favicon.svg"); err != nil || !strings.Contains(svg, "<svg") {
			t.Fatalf("asset: %.80s %v", svg, err)
		}
		if mt, err := pub.Metrics(ctx); err != nil || !strings.Contains(mt, "go_goroutines") {
			t.Fatalf("metrics: %v", err)
		}
		if p, err := pub.GetPricing(ctx); err != nil || p.OperationCosts["memory.write"] != 5 {
			t.Fatalf("pricing: %+v %v", p, err)
		}
		if self, err := c.GetSelf(ctx); err != nil || self.AgentID != reg.AgentID || self.Name != "client-e2e" || self.CreatedAt.IsZero() {
			t.Fatalf("self: %+v %v", self, err)
		}
		if ab, err := c.GetAgentBalance(ctx); err != nil || ab.AptosAddress != reg.AptosAddress || ab.DepositInfo.Address != reg.AptosAddress ||
			ab.CreditBalance != balance(t) {
			t.Fatalf("agent balance: %+v %v", ab, err)
		}
	})

	t.Run("InsufficientCredits", func(t *testing.T) {
		if p, err := pub.SetPricing(ctx, map[string]int64{"memory.write": 100000}); err != nil || p.OperationCosts["memory.write"] != 100000 {
			t.Fatalf("set pricing: %+v %v", p, err)
		}
		defer pub.SetPricing(ctx, map[string]int64{"memory.write": 5})
		before := balance(t)
		_, err := c.CreateMemory(ctx, client.MemoryWrite{Key: "too/expensive", Content: "x"}, "idem-402")
		var e *client.Error
		if !errors.As(err, &e) || e.Status != 402 || e.Code != cairn.EPAYMENT || e.Required == nil || *e.Required != 100000 ||
			e.Available == nil || *e.Available != before {
			t.Fatalf("402: %+v", err)
		}
		if balance(t) != before {
			t.Fatal("a refused write was charged")
		}
	})

	t.Run("Accounts", func(t *testing.T) {
		sub, err := c.CreateAgent(ctx, "helper")
		if err != nil || sub.DeveloperID != reg.DeveloperID {
			t.Fatalf("create agent: %+v %v", sub, err)
		}
		rot, err := c.WithAPIKey(sub.APIKey).RotateKey(ctx, sub.RotationSecret)
		if err != nil || rot.APIKey == sub.APIKey || rot.RotationSecret == sub.RotationSecret || rot.AgentID != sub.AgentID || rot.AgentName != "helper" {
			t.Fatalf("rotate: %+v %v", rot, err)
		}
		if ag, err := pub.GetAdminAgent(ctx, sub.AgentID); err != nil || ag.Name != "helper" || ag.DeveloperID != reg.DeveloperID || ag.Revoked {
			t.Fatalf("admin look-up: %+v %v", ag, err)
		}
		if rv, err := pub.RevokeAgent(ctx, sub.AgentID); err != nil || !rv.Revoked || rv.AgentID != sub.AgentID || rv.RevokedAt.IsZero() {
			t.Fatalf("revoke: %+v %v", rv, err)
		}
		if _, err := c.WithAPIKey(rot.APIKey).GetSelf(ctx); !client.IsCode(err, cairn.EFORBIDDEN) && !client.IsCode(err, cairn.EUNAUTHORIZED) {
			t.Fatalf("revoked agent: %v", err)
		}
	})
}

func mustFindKey(t *testing.T, c *client.Client, key string) string {
	t.Helper()
	for m, err := range c.AllMemories(context.Background(), client.ListMemoriesParams{}) {
		if err != nil {
			t.Fatal(err)
		}
		if m.Key == key {
			return m.ID
		}
	}
	t.Fatalf("no memory %q", key)
	return ""
}

// checkScreeningProof checks with the typed fields what a screener checks:
// resultsHash is the SHA-256 of the results the server sent.
func checkScreeningProof(t *testing.T, sc *client.Screening) {
	t.Helper()
	if sc.Proof.ScreeningID == "" || sc.Proof.ListVersion == 0 || sc.Proof.MerkleRoot != sc.Proof.SanctionsRoot ||
		len(sc.Proof.DataSnapshots) == 0 || sc.RateLimit.FreeLimit == 0 || sc.Proof.Timestamp.IsZero() {
		t.Fatalf("screening proof: %+v", sc.Proof)
	}
	if got := resultsHash(t, sc.ResultsJSON); got != sc.Proof.ResultsHash {
		t.Fatalf("resultsHash %s, the results hash to %s", sc.Proof.ResultsHash, got)
	}
}

// checkProofDocument verifies a stored screening proof as an auditor does:
// the results hash to resultsHash, and each class's multiproof proves the
// listed results against the root the document names for that class.
func checkProofDocument(t *testing.T, p *client.ScreeningProofDocument) {
	t.Helper()
	if got := resultsHash(t, p.ResultsJSON); got != p.ResultsHash {
		t.Fatalf("resultsHash %s, the stored results hash to %s", p.ResultsHash, got)
	}
	listed := 0
	for _, r := range p.Results {
		if r.Status == "sanctioned" {
			listed++
		}
	}
	mp, ok := p.MerkleProofs["sanctions"]
	if !ok || mp.Root != p.SanctionsRoot || len(mp.Values) != listed || len(mp.Leaves) != listed {
		t.Fatalf("sanctions multiproof %+v for %d sanctioned results (root %s)", mp, listed, p.SanctionsRoot)
	}
	for i, v := range mp.Values {
		if merkle.LeafHashStrings2(v[0], v[1]).String() != mp.Leaves[i] {
			t.Fatalf("leaf %d is not the leaf of %v", i, v)
		}
	}
	if ok, err := merkle.VerifyStandardMultiProof(hexBytes32(t, mp.Root), []string{"string", "string"}, pairs(mp.Values),
		hashes(t, mp.Proof), mp.ProofFlags); err != nil || !ok {
		t.Fatalf("the sanctions multiproof does not verify: %v", err)
	}
}

func resultsHash(t *testing.T, results []byte) string {
	t.Helper()
	var compact bytes.Buffer
	if err := json.Compact(&compact, results); err != nil {
		t.Fatalf("results %q: %v", results, err)
	}
	sum := sha256.Sum256(compact.Bytes())
	return hex.EncodeToString(sum[:])
}

func hashes(t *testing.T, hs []string) []merkle.Hash {
	t.Helper()
	out := make([]merkle.Hash, len(hs))
	for i, h := range hs {
		out[i] = hexBytes32(t, h)
	}
	return out
}

func pairs(vs [][2]string) [][]any {
	out := make([][]any, len(vs))
	for i, v := range vs {
		out[i] = []any{v[0], v[1]}
	}
	return out
}
