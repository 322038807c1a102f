package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

type metrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	credits  *prometheus.CounterVec
	refunds  *prometheus.CounterVec
	handler  gin.HandlerFunc
	plain    http.Handler
}

func newMetrics(reg *prometheus.Registry) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cairn_http_requests_total", Help: "HTTP requests by route, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "cairn_http_request_duration_seconds", Help: "HTTP request latency by route, method and status.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"route", "method", "status"}),
		credits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cairn_credits_charged_total", Help: "Credits charged, by operation.",
		}, []string{"operation"}),
		refunds: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cairn_credits_refunded_total", Help: "Credits refunded, by operation.",
		}, []string{"operation"}),
	}
	reg.MustRegister(m.requests, m.latency, m.credits, m.refunds)
	// A private registry gets the process and Go collectors itself.
	_ = reg.Register(collectors.NewGoCollector())
	_ = reg.Register(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.plain = promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
	m.handler = gin.WrapH(m.plain)
	return m
}

func (m *metrics) charged(op string, n int64)  { m.credits.WithLabelValues(op).Add(float64(n)) }
func (m *metrics) refunded(op string, n int64) { m.refunds.WithLabelValues(op).Add(float64(n)) }

func (s *Server) metricsMiddleware(c *gin.Context) {
	start := time.Now()
	c.Next()
	route := routeLabel(c)
	status := strconv.Itoa(c.Writer.Status())
	s.metrics.requests.WithLabelValues(route, c.Request.Method, status).Inc()
	s.metrics.latency.WithLabelValues(route, c.Request.Method, status).Observe(time.Since(start).Seconds())
}

// MetricsHandler serves the metrics without authentication, for a listener
// of its own that only operators reach (--metrics-listen); on the API
// listener GET /metrics needs the admin token.
func (s *Server) MetricsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.plain)
	return mux
}
