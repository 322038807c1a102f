package wire

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// sortedBodies are the types that replaced a map the server once wrote:
// encoding/json writes a map's keys sorted, a struct's fields in
// declaration order, so these declare their fields sorted by JSON name to
// keep the bytes of every answer.
var sortedBodies = []reflect.Type{
	reflect.TypeFor[Agent](),
	reflect.TypeFor[Rotation](),
	reflect.TypeFor[Revocation](),
	reflect.TypeFor[Pricing](),
	reflect.TypeFor[Balance](),
	reflect.TypeFor[TransactionPage](),
	reflect.TypeFor[AgentBalance](),
	reflect.TypeFor[Deposit](),
	reflect.TypeFor[Grant](),
	reflect.TypeFor[ReportResult](),
	reflect.TypeFor[ReportModeration](),
	reflect.TypeFor[Report](),
	reflect.TypeFor[ReportPage](),
	reflect.TypeFor[ModeratedReport](),
	reflect.TypeFor[Moderation](),
	reflect.TypeFor[Ingestion](),
	reflect.TypeFor[MemoryPage](),
	reflect.TypeFor[SearchHit](),
	reflect.TypeFor[SearchedFields](),
	reflect.TypeFor[SearchResults](),
	reflect.TypeFor[VectorSearched](),
	reflect.TypeFor[VectorSearchResults](),
	reflect.TypeFor[VectorSpace](),
	reflect.TypeFor[VectorSpaces](),
	reflect.TypeFor[Reembed](),
	reflect.TypeFor[ItemError](),
	reflect.TypeFor[BulkItem](),
	reflect.TypeFor[BulkResults](),
	reflect.TypeFor[ExpiringMemory](),
	reflect.TypeFor[Expiring](),
	reflect.TypeFor[Renewal](),
	reflect.TypeFor[TTLAlerts](),
	reflect.TypeFor[AuditEntry](),
	reflect.TypeFor[AuditPage](),
	reflect.TypeFor[DeleteResult](),
	reflect.TypeFor[HistoryVersion](),
	reflect.TypeFor[History](),
	reflect.TypeFor[PinResult](),
	reflect.TypeFor[ImportanceResult](),
	reflect.TypeFor[MediaPage](),
	reflect.TypeFor[MediaDeletion](),
	reflect.TypeFor[ListingHistory](),
	reflect.TypeFor[SourceState](),
	reflect.TypeFor[ListVersion](),
	reflect.TypeFor[ListVersionPage](),
	reflect.TypeFor[LastIngestion](),
	reflect.TypeFor[ListStats](),
	reflect.TypeFor[ReportStats](),
	reflect.TypeFor[ComplianceStatistics](),
	reflect.TypeFor[ScreeningRateLimit](),
	reflect.TypeFor[ExclusionProof](),
	reflect.TypeFor[MerkleProof](),
	reflect.TypeFor[AddressProof](),
	reflect.TypeFor[Multiproof](),
	reflect.TypeFor[ExclusionMultiproof](),
	reflect.TypeFor[MerkleProofBatch](),
	reflect.TypeFor[Anchor](),
	reflect.TypeFor[Oracle](),
	reflect.TypeFor[MerkleRoot](),
}

// TestMembersSorted: the members of every sortedBodies type are declared
// in sorted order.
func TestMembersSorted(t *testing.T) {
	for _, typ := range sortedBodies {
		names := memberNames(typ)
		if len(names) == 0 {
			t.Errorf("%s has no JSON member", typ)
		}
		if !slices.IsSorted(names) {
			sorted := slices.Clone(names)
			slices.Sort(sorted)
			t.Errorf("%s declares its members %v, the map it replaced wrote %v", typ, names, sorted)
		}
	}
}

// memberNames are the JSON names of a struct's fields in declaration
// order, an embedded struct's (as Paging) in its place, as encoding/json
// writes them.
func memberNames(typ reflect.Type) []string {
	var names []string
	for f := range typ.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			names = append(names, memberNames(f.Type)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

func TestTime(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 100_000_000, time.FixedZone("x", 3600))
	b, err := json.Marshal(struct {
		At  Time  `json:"at"`
		Opt *Time `json:"opt"`
		Set *Time `json:"set"`
	}{At(at), OptAt(time.Time{}), OptAt(at)})
	if want := `{"at":"2025-01-02T02:04:05.100Z","opt":null,"set":"2025-01-02T02:04:05.100Z"}`; err != nil || string(b) != want {
		t.Fatalf("Marshal = %s %v, want %s", b, err, want)
	}
	var back struct {
		At  Time  `json:"at"`
		Opt *Time `json:"opt"`
	}
	if err := json.Unmarshal(b, &back); err != nil || !back.At.Equal(at) || back.Opt != nil {
		t.Fatalf("Unmarshal = %+v %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"at":"yesterday"}`), &back); err == nil {
		t.Fatal("Unmarshal accepted a time that is not RFC 3339")
	}
	if s := At(at).String(); s != "2025-01-02T02:04:05.100Z" {
		t.Fatalf("String = %s", s)
	}
}

// TestAnchorAndOracle: a disabled anchor or oracle is written with its
// status only, any other with every member, null until known.
func TestAnchorAndOracle(t *testing.T) {
	tx := "0xab<&>"
	for _, tc := range []struct {
		v    any
		want string
	}{
		{Anchor{Status: Disabled}, `{"status":"disabled"}`},
		{Anchor{Status: "pending", ChainID: 31337, Contract: "0x01"},
			`{"blockNumber":null,"chainId":31337,"contract":"0x01","error":null,"listVersion":null,"status":"pending","syncedAt":null,"txHash":null}`},
		{Anchor{Status: "submitted", TxHash: &tx}, `{"blockNumber":null,"chainId":0,"contract":"","error":null,"listVersion":null,"status":"submitted","syncedAt":null,"txHash":"0xab<&>"}`},
		{Oracle{Status: Disabled}, `{"status":"disabled"}`},
		{Oracle{Status: "syncing"}, `{"error":null,"listVersion":null,"pending":0,"status":"syncing","txHash":null}`},
	} {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(tc.v); err != nil || strings.TrimSpace(b.String()) != tc.want {
			t.Errorf("%+v is written %s (%v), want %s", tc.v, b.String(), err, tc.want)
		}
	}
}

// TestPagingInPlace: an embedded Paging writes hasMore, limit and
// nextCursor where the page type embeds it, as the fields it replaced.
func TestPagingInPlace(t *testing.T) {
	next := "c1"
	for _, tc := range []struct {
		page any
		want string
	}{
		{AlertPage{Alerts: []Alert{}, Paging: PagingOf(2, &next)}, `{"alerts":[],"hasMore":true,"limit":2,"nextCursor":"c1"}`},
		{WebhookPage{Paging: PagingOf(50, nil), Webhooks: []Webhook{}}, `{"hasMore":false,"limit":50,"nextCursor":null,"webhooks":[]}`},
	} {
		b, err := json.Marshal(tc.page)
		if err != nil || string(b) != tc.want {
			t.Errorf("%T written as %s (%v), want %s", tc.page, b, err, tc.want)
		}
	}
}
