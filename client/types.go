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

	Pricing         = wire.Pricing
	Balance         = wire.Balance
	Transaction     = wire.Transaction
	TransactionPage = wire.TransactionPage
	AgentBalance    = wire.AgentBalance
	Deposit         = wire.Deposit
	Grant           = wire.Grant

	ReportRequest    = wire.ReportRequest
	ReportResult     = wire.ReportResult
	ReportModeration = wire.ReportModeration
	Report           = wire.Report
	ReportPage       = wire.ReportPage
	ModeratedReport  = wire.ModeratedReport
	Moderation       = wire.Moderation
	Ingestion        = wire.Ingestion
)
