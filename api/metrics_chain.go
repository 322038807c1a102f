package api

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn/compliance"
	"github.com/prometheus/client_golang/prometheus"
)

// chainCollector reports, at each scrape, what operators watch of the
// list and the chain side: the installed and the anchored list version,
// the anchoring and oracle states, each source's ingestion state and
// whether this instance leads. Its reads are the ones GET
// /v1/compliance/merkle-root makes (the store, never the chain), bounded
// by two seconds.
type chainCollector struct {
	s                                           *Server
	listVersion, anchorVersion, anchoredVersion *prometheus.Desc
	anchorStatus, oracleStatus, oracleVersion   *prometheus.Desc
	oraclePending, sourceFailing, sourceEntries *prometheus.Desc
	sourceSuccess, sourceFailure, leader        *prometheus.Desc
	readErrors                                  *prometheus.Desc
}

func newChainCollector(s *Server) *chainCollector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, labels, nil)
	}
	return &chainCollector{s: s,
		listVersion:     d("cairn_list_version", "The list version this instance serves (0: none loaded)."),
		anchorVersion:   d("cairn_anchor_list_version", "The newest list version submitted for anchoring (0: none, or anchoring off)."),
		anchoredVersion: d("cairn_list_anchored_version", "The newest list version the chain holds with the required confirmations (0: none, or anchoring off)."),
		anchorStatus:    d("cairn_anchor_status", "1 for the anchoring status of the newest submitted version (disabled, pending, submitted, synced, failed).", "status"),
		oracleStatus:    d("cairn_oracle_status", "1 for the state of the contract's isSanctioned storage (disabled, syncing, synced, failed).", "status"),
		oracleVersion:   d("cairn_oracle_list_version", "The anchored list version the oracle storage follows (0: none)."),
		oraclePending:   d("cairn_oracle_pending_addresses", "Addresses the oracle storage still has to add or remove, as last counted."),
		sourceFailing:   d("cairn_ingest_source_failing", "1 when the source's last ingestion failed (it keeps its previous version), else 0.", "source"),
		sourceEntries:   d("cairn_ingest_source_entries", "Entries of the source in use.", "source"),
		sourceSuccess:   d("cairn_ingest_source_last_success_timestamp_seconds", "When the source was last ingested successfully (0: never).", "source"),
		sourceFailure:   d("cairn_ingest_source_last_failure_timestamp_seconds", "When the source's ingestion last failed (0: never; compare with the last success).", "source"),
		leader:          d("cairn_leader", "1 when this instance leads (runs scheduled ingestion, anchoring and the oracle), else 0."),
		readErrors:      d("cairn_chain_state_read_errors", "1 when the anchored version could not be read from the store at this scrape, else 0."),
	}
}

func (c *chainCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.listVersion, c.anchorVersion, c.anchoredVersion, c.anchorStatus, c.oracleStatus,
		c.oracleVersion, c.oraclePending, c.sourceFailing, c.sourceEntries, c.sourceSuccess, c.sourceFailure, c.leader, c.readErrors} {
		ch <- d
	}
}

func (c *chainCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	r := c.s.Compliance.Roots(ctx)
	gauge(c.listVersion, float64(r.ListVersion))
	gauge(c.anchorVersion, float64(r.Anchor.ListVersion))
	anchored, err := c.s.Compliance.Anchored(ctx)
	gauge(c.anchoredVersion, float64(anchored))
	gauge(c.readErrors, boolValue(err != nil))
	for _, st := range compliance.AnchorStatuses {
		gauge(c.anchorStatus, boolValue(r.Anchor.Status == st), st)
	}
	for _, st := range compliance.OracleStatuses {
		gauge(c.oracleStatus, boolValue(r.Oracle.Status == st), st)
	}
	gauge(c.oracleVersion, float64(r.Oracle.ListVersion))
	gauge(c.oraclePending, float64(r.Oracle.Pending))
	if c.s.Ingest != nil {
		for name, st := range c.s.Ingest.States() {
			gauge(c.sourceFailing, boolValue(st.LastError != ""), name)
			gauge(c.sourceEntries, float64(st.Entries), name)
			gauge(c.sourceSuccess, unixSeconds(st.IngestAt), name)
			gauge(c.sourceFailure, unixSeconds(st.FailedAt), name)
		}
	}
	if c.s.Leading != nil {
		gauge(c.leader, boolValue(c.s.Leading()))
	}
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func unixSeconds(t time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return float64(t.UnixNano()) / 1e9
}
