package client

import "github.com/cairn-dev/cairn/wire"

// The client's results and request bodies are package wire's types, which
// the server writes and reads too; these names keep the client's own.
type (
	DepositInfo  = wire.DepositInfo
	Registration = wire.Registration
	Agent        = wire.Agent
	Rotation     = wire.Rotation
	Revocation   = wire.Revocation
	AdminAgent   = wire.AdminAgent

	Pricing         = wire.Pricing
	Balance         = wire.Balance
	Transaction     = wire.Transaction
	TransactionPage = wire.TransactionPage
	AgentBalance    = wire.AgentBalance
	Deposit         = wire.Deposit
	Grant           = wire.Grant

	SigningKey  = wire.SigningKey
	SigningKeys = wire.SigningKeys

	ReportRequest    = wire.ReportRequest
	ReportResult     = wire.ReportResult
	ReportModeration = wire.ReportModeration
	Report           = wire.Report
	ReportPage       = wire.ReportPage
	ModeratedReport  = wire.ModeratedReport
	Moderation       = wire.Moderation
	Ingestion        = wire.Ingestion

	MemoryMetadata      = wire.MemoryMetadata
	Metadata            = wire.Metadata
	Memory              = wire.Memory
	MemoryPage          = wire.MemoryPage
	SearchRequest       = wire.SearchRequest
	SearchHit           = wire.SearchHit
	SearchResults       = wire.SearchResults
	SearchedFields      = wire.SearchedFields
	VectorSearchResults = wire.VectorSearchResults
	VectorSearched      = wire.VectorSearched
	VectorSpace         = wire.VectorSpace
	VectorSpaces        = wire.VectorSpaces
	Reembed             = wire.Reembed
	BulkResults         = wire.BulkResults
	BulkItem            = wire.BulkItem
	ItemError           = wire.ItemError
	ExpiringMemory      = wire.ExpiringMemory
	Expiring            = wire.Expiring
	TTLAlertsRequest    = wire.TTLAlertsRequest
	TTLAlerts           = wire.TTLAlerts
	Renewal             = wire.Renewal
	AuditEntry          = wire.AuditEntry
	AuditPage           = wire.AuditPage
	DeleteResult        = wire.DeleteResult
	History             = wire.History
	HistoryVersion      = wire.HistoryVersion
	PinResult           = wire.PinResult
	ImportanceResult    = wire.ImportanceResult

	Media         = wire.Media
	MediaPage     = wire.MediaPage
	MediaDeletion = wire.MediaDeletion

	ListingEvent         = wire.ListingEvent
	ListingHistory       = wire.ListingHistory
	SourceState          = wire.SourceState
	ListVersion          = wire.ListVersion
	ListVersionPage      = wire.ListVersionPage
	VersionChange        = wire.VersionChange
	VersionChangePage    = wire.VersionChangePage
	LastIngestion        = wire.LastIngestion
	ListStats            = wire.ListStats
	ReportStats          = wire.ReportStats
	ComplianceStatistics = wire.ComplianceStatistics
	ScreeningRateLimit   = wire.ScreeningRateLimit

	Multiproof          = wire.Multiproof
	MerkleProof         = wire.MerkleProof
	ExclusionProof      = wire.ExclusionProof
	ExclusionMultiproof = wire.ExclusionMultiproof
	AddressProof        = wire.AddressProof
	MerkleProofBatch    = wire.MerkleProofBatch
	Anchor              = wire.Anchor
	Oracle              = wire.Oracle
	MerkleRoot          = wire.MerkleRoot

	Status = wire.Status
)
