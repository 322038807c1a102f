package api_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/wire"
	"github.com/getkin/kin-openapi/openapi3"
)

// wireBodies names, by operationId, the wire types api writes as an
// operation's JSON success response and reads as its JSON request body (nil:
// none, or not a wire type).
var wireBodies = map[string]struct{ response, request reflect.Type }{
	"registerAgent":          {typ[wire.Registration](), typ[wire.NameRequest]()},
	"getSelf":                {typ[wire.Agent](), nil},
	"createAgent":            {typ[wire.Registration](), typ[wire.NameRequest]()},
	"rotateKey":              {typ[wire.Rotation](), typ[wire.RotateRequest]()},
	"revokeAgent":            {typ[wire.Revocation](), nil},
	"getAdminAgent":          {typ[wire.AdminAgent](), nil},
	"listReports":            {typ[wire.ReportPage](), nil},
	"confirmReport":          {typ[wire.Moderation](), typ[wire.ModerationRequest]()},
	"rejectReport":           {typ[wire.Moderation](), typ[wire.ModerationRequest]()},
	"delistCommunityAddress": {typ[wire.Moderation](), typ[wire.DelistRequest]()},
	"getPricing":             {typ[wire.Pricing](), nil},
	"getSigningKeys":         {typ[wire.SigningKeys](), nil},
	"getBalance":             {typ[wire.Balance](), nil},
	"listTransactions":       {typ[wire.TransactionPage](), nil},
	"getAgentBalance":        {typ[wire.AgentBalance](), nil},
	"depositAPT":             {typ[wire.Deposit](), typ[wire.DepositRequest]()},
	"setPricing":             {typ[wire.Pricing](), typ[wire.PricingRequest]()},
	"grantCredits":           {typ[wire.Grant](), typ[wire.GrantRequest]()},
	"getMerkleProof":         {typ[wire.MerkleProof](), nil},
	"getMerkleProofBatch":    {typ[wire.MerkleProofBatch](), nil},
	"getMerkleRoot":          {typ[wire.MerkleRoot](), nil},
	"runIngest":              {typ[wire.Ingestion](), nil},
	"reportAddress":          {typ[wire.ReportResult](), typ[wire.ReportRequest]()},
	"complianceStats":        {typ[wire.ComplianceStatistics](), nil},
	"getListingHistory":      {typ[wire.ListingHistory](), nil},
	"listListVersions":       {typ[wire.ListVersionPage](), nil},
	"listListVersionChanges": {typ[wire.VersionChangePage](), nil},
	"uploadMedia":            {typ[wire.Media](), nil},
	"listMedia":              {typ[wire.MediaPage](), nil},
	"renewMedia":             {typ[wire.Media](), typ[wire.RenewMediaRequest]()},
	"getMedia":               {typ[wire.Media](), nil},
	"deleteMedia":            {typ[wire.MediaDeletion](), nil},
	"createMemory":           {typ[wire.Memory](), nil},
	"listMemories":           {typ[wire.MemoryPage](), nil},
	"searchMemories":         {typ[wire.SearchResults](), typ[wire.SearchRequest]()},
	"uploadMemory":           {typ[wire.Memory](), nil},
	"bulkCreateMemories":     {typ[wire.BulkResults](), nil},
	"bulkDeleteMemories":     {typ[wire.BulkResults](), typ[wire.BulkDeleteRequest]()},
	"expiringMemories":       {typ[wire.Expiring](), nil},
	"memoryTtlAlerts":        {typ[wire.TTLAlerts](), typ[wire.TTLAlertsRequest]()},
	"memoryAudit":            {typ[wire.AuditPage](), nil},
	"getMemory":              {typ[wire.Memory](), nil},
	"putMemory":              {typ[wire.Memory](), nil},
	"deleteMemory":           {typ[wire.DeleteResult](), nil},
	"getMemoryByKey":         {typ[wire.Memory](), nil},
	"memoryHistory":          {typ[wire.History](), nil},
	"pinMemory":              {typ[wire.PinResult](), typ[wire.PinRequest]()},
	"setMemoryImportance":    {typ[wire.ImportanceResult](), typ[wire.ImportanceRequest]()},
	"memoryVectorSpaces":     {typ[wire.VectorSpaces](), nil},
	"vectorSearchMemories":   {typ[wire.VectorSearchResults](), nil},
	"reembedMemories":        {typ[wire.Reembed](), typ[wire.ReembedRequest]()},
	"createWatchlist":        {typ[wire.WatchlistChange](), typ[wire.WatchlistRequest]()},
	"listWatchlists":         {typ[wire.WatchlistPage](), nil},
	"getWatchlist":           {typ[wire.Watchlist](), nil},
	"listWatchedAddresses":   {typ[wire.WatchedAddressPage](), nil},
	"addWatchedAddresses":    {typ[wire.WatchlistChange](), typ[wire.WatchAddressesRequest]()},
	"removeWatchedAddresses": {typ[wire.WatchlistChange](), typ[wire.WatchAddressesRequest]()},
	"listAlerts":             {typ[wire.AlertPage](), nil},
	"createWebhook":          {typ[wire.Webhook](), typ[wire.WebhookRequest]()},
	"listWebhooks":           {typ[wire.WebhookPage](), nil},
	"getWebhook":             {typ[wire.Webhook](), nil},
	"rotateWebhookSecret":    {typ[wire.Webhook](), nil},
	"enableWebhook":          {typ[wire.Webhook](), nil},
	"listWebhookDeliveries":  {typ[wire.WebhookDeliveryPage](), nil},
	"redeliverWebhook":       {typ[wire.WebhookDelivery](), nil},
	"healthz":                {typ[wire.Status](), nil},
	"readyz":                 {typ[wire.Status](), nil},
}

// notWire are the operations whose JSON success response is no wire type:
// the screening answer is assembled around the hashed results bytes, a
// stored proof document is served as compliance stored it, and the
// OpenAPI document and the skill are documents of their own.
var notWire = []string{"screenAddresses", "getScreeningProof", "getOpenAPI", "getSkill"}

func typ[T any]() reflect.Type { return reflect.TypeFor[T]() }

// TestWireTypesFollowOpenAPI checks the OpenAPI document against the wire
// types: each JSON success response and each request body wireBodies
// names has exactly the members of its schema, at every depth and of its
// JSON type (apitest.SchemaDiff), and every operation with a JSON success
// response names its wire type, so that a member or an operation added on
// one side only fails.
func TestWireTypesFollowOpenAPI(t *testing.T) {
	doc, err := apitest.Document()
	if err != nil {
		t.Fatal(err)
	}
	var errs []string
	seen := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for verb, op := range item.Operations() {
			errs = append(errs, checkOperation(verb+" "+path, op, seen)...)
		}
	}
	for id := range wireBodies {
		if !seen[id] {
			errs = append(errs, fmt.Sprintf("wireBodies names %s, which the document lacks", id))
		}
	}
	if len(seen) < len(wireBodies) || len(wireBodies) < 50 {
		errs = append(errs, fmt.Sprintf("checked %d of %d operations", len(seen), len(wireBodies)))
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		t.Fatalf("%d differences between the wire types and the OpenAPI document:\n  %s", len(errs), strings.Join(errs, "\n  "))
	}
}

// checkOperation compares one operation's bodies with their wire types and
// marks it seen.
func checkOperation(name string, op *openapi3.Operation, seen map[string]bool) []string {
	b, ok := wireBodies[op.OperationID]
	name += " (" + op.OperationID + ")"
	schema := apitest.SuccessSchema(op)
	switch {
	case !ok && schema != nil && !slices.Contains(notWire, op.OperationID):
		return []string{name + ": a JSON answer wireBodies does not name"}
	case !ok:
		return nil
	}
	seen[op.OperationID] = true
	var errs []string
	if schema == nil {
		errs = append(errs, name+": wireBodies names a response the document does not give as JSON")
	} else {
		errs = append(errs, apitest.SchemaDiff(name+" response "+b.response.Name(), b.response, schema)...)
	}
	if b.request != nil {
		req := apitest.RequestSchema(op)
		if req == nil {
			return append(errs, name+": wireBodies names a request body the document lacks")
		}
		errs = append(errs, apitest.SchemaDiff(name+" request "+b.request.Name(), b.request, req)...)
	}
	return errs
}
