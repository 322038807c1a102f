package api

import "github.com/prometheus/client_golang/prometheus"

// syncReporter is the embedded store's account of its disk (store/pebble
// syncstats.go): how long synced commits waited for the log's sync, and
// the write stalls. PostgreSQL reports its own.
type syncReporter interface {
	SyncWaits() (bounds []float64, cumulative []uint64, count uint64, seconds float64)
	WriteStalls() (count uint64, seconds float64)
}

// storeCollector reports them at each scrape.
type storeCollector struct {
	r                         syncReporter
	syncWait, stalls, stalled *prometheus.Desc
}

func newStoreCollector(r syncReporter) *storeCollector {
	return &storeCollector{r: r,
		syncWait: prometheus.NewDesc("cairn_store_sync_wait_seconds",
			"How long the embedded store's synced commits waited for the log's sync (a durable write's disk wait).", nil, nil),
		stalls: prometheus.NewDesc("cairn_store_write_stalls_total",
			"Times the embedded store delayed writes while flushes or compactions caught up.", nil, nil),
		stalled: prometheus.NewDesc("cairn_store_write_stall_seconds_total",
			"Time the embedded store's writes were delayed in all.", nil, nil),
	}
}

func (c *storeCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.syncWait
	ch <- c.stalls
	ch <- c.stalled
}

func (c *storeCollector) Collect(ch chan<- prometheus.Metric) {
	bounds, cumulative, count, seconds := c.r.SyncWaits()
	buckets := make(map[float64]uint64, len(bounds))
	for i, b := range bounds {
		buckets[b] = cumulative[i]
	}
	ch <- prometheus.MustNewConstHistogram(c.syncWait, count, seconds, buckets)
	n, s := c.r.WriteStalls()
	ch <- prometheus.MustNewConstMetric(c.stalls, prometheus.CounterValue, float64(n))
	ch <- prometheus.MustNewConstMetric(c.stalled, prometheus.CounterValue, s)
}

// unpaidReporter is PostgreSQL's account of the deferred charges it
// refused after serving their requests (store/postgres
// deferred_charges.go): another instance had spent the balance.
type unpaidReporter interface {
	UnpaidCharges() (count, credits uint64)
}

// unpaidCollector reports them at each scrape.
type unpaidCollector struct {
	r              unpaidReporter
	count, credits *prometheus.Desc
}

func newUnpaidCollector(r unpaidReporter) *unpaidCollector {
	return &unpaidCollector{r: r,
		count: prometheus.NewDesc("cairn_charges_unpaid_total",
			"Deferred charges PostgreSQL refused after their requests were served (another instance spent the balance meanwhile).", nil, nil),
		credits: prometheus.NewDesc("cairn_charges_unpaid_credits_total",
			"Credits of those charges: served and never paid.", nil, nil),
	}
}

func (c *unpaidCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.count
	ch <- c.credits
}

func (c *unpaidCollector) Collect(ch chan<- prometheus.Metric) {
	n, credits := c.r.UnpaidCharges()
	ch <- prometheus.MustNewConstMetric(c.count, prometheus.CounterValue, float64(n))
	ch <- prometheus.MustNewConstMetric(c.credits, prometheus.CounterValue, float64(credits))
}
