package api

import (
	"context"
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// watchBodyLimit bounds the body of a watchlist request: up to
// compliance.MaxWatched addresses, with their chains.
const watchBodyLimit = 16 << 20

func init() {
	for _, p := range []string{"/v1/compliance/watchlists", "/v1/compliance/watchlists/:id/addresses"} {
		uploadRoutes[p] = watchBodyLimit
	}
}

// watchRoutes registers the watchlists and their alerts: a developer
// account's, with an agent key or a developer token.
func (s *Server) watchRoutes(v1 *gin.RouterGroup) {
	g := v1.Group("/compliance", s.agentOrDeveloperAuth, s.limited())
	g.POST("/watchlists", watchBody, strictBody[wire.WatchlistRequest](), s.paid(""), h(s.createWatchlist))
	g.GET("/watchlists", h(s.listWatchlists))
	g.GET("/watchlists/:id", h(s.getWatchlist))
	g.DELETE("/watchlists/:id", h(s.deleteWatchlist))
	g.GET("/watchlists/:id/addresses", h(s.listWatchedAddresses))
	g.POST("/watchlists/:id/addresses", watchBody, strictBody[wire.WatchAddressesRequest](), s.paid(""), h(s.addWatchedAddresses))
	g.DELETE("/watchlists/:id/addresses", watchBody, strictBody[wire.WatchAddressesRequest](), h(s.removeWatchedAddresses))
	g.GET("/alerts", h(s.listAlerts))
}

// watchBody bounds a watchlist request's body by watchBodyLimit (the
// routes are exempt from the common bound).
func watchBody(c *gin.Context) {
	if c.Request.ContentLength > watchBodyLimit {
		writeError(c, cairn.Errorf(cairn.ETOOLARGE, "Request body exceeds %d bytes.", watchBodyLimit).With("limit", watchBodyLimit))
		return
	}
	if c.Request.Body != nil {
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, watchBodyLimit)
	}
	c.Next()
}

// watchQueries are the addresses of a watchlist request as screening
// queries.
func watchQueries(in []wire.WatchAddress) []screening.Query {
	qs := make([]screening.Query, len(in))
	for i, a := range in {
		qs[i] = screening.Query{Address: a.Address, Chain: a.Chain}
	}
	return qs
}

// createWatchlist is POST /v1/compliance/watchlists.
func (s *Server) createWatchlist(c *gin.Context) error {
	var in wire.WatchlistRequest
	if err := bindJSON(c, &in, false); err != nil {
		return err
	}
	p := principalOf(c)
	w, bad, err := s.Watchlists.Create(c.Request.Context(), p.DeveloperID, in.Name, watchQueries(in.Addresses), billOf(c), s.Pricing.Cost(billing.OpWatch))
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusCreated, wire.WatchlistChange{Watchlist: watchlistJSON(w), Added: w.Addresses, Rejected: rejectedJSON(bad),
		CreditCharged: billOf(c).Charged()})
	return nil
}

// addWatchedAddresses is POST /v1/compliance/watchlists/:id/addresses.
func (s *Server) addWatchedAddresses(c *gin.Context) error {
	var in wire.WatchAddressesRequest
	if err := bindJSON(c, &in, false); err != nil {
		return err
	}
	ctx, dev, id := c.Request.Context(), principalOf(c).DeveloperID, c.Param("id")
	n, bad, err := s.Watchlists.Add(ctx, dev, id, watchQueries(in.Addresses), billOf(c), s.Pricing.Cost(billing.OpWatch))
	if err != nil {
		return err
	}
	return s.writeWatchChange(c, id, wire.WatchlistChange{Added: n, Rejected: rejectedJSON(bad), CreditCharged: billOf(c).Charged()})
}

// removeWatchedAddresses is DELETE /v1/compliance/watchlists/:id/addresses.
func (s *Server) removeWatchedAddresses(c *gin.Context) error {
	var in wire.WatchAddressesRequest
	if err := bindJSON(c, &in, false); err != nil {
		return err
	}
	ctx, dev, id := c.Request.Context(), principalOf(c).DeveloperID, c.Param("id")
	n, bad, err := s.Watchlists.Remove(ctx, dev, id, watchQueries(in.Addresses))
	if err != nil {
		return err
	}
	return s.writeWatchChange(c, id, wire.WatchlistChange{Removed: n, Rejected: rejectedJSON(bad)})
}

// writeWatchChange writes the answer of a change of a watchlist's
// addresses, with the watchlist as it is now.
func (s *Server) writeWatchChange(c *gin.Context, id string, out wire.WatchlistChange) error {
	w, err := s.Watchlists.Get(c.Request.Context(), principalOf(c).DeveloperID, id)
	if err != nil {
		return err
	}
	out.Watchlist = watchlistJSON(w)
	writeJSON(c, http.StatusOK, out)
	return nil
}

// getWatchlist is GET /v1/compliance/watchlists/:id.
func (s *Server) getWatchlist(c *gin.Context) error {
	w, err := s.Watchlists.Get(c.Request.Context(), principalOf(c).DeveloperID, c.Param("id"))
	return respond(c, http.StatusOK, w, err, watchlistJSON)
}

// deleteWatchlist is DELETE /v1/compliance/watchlists/:id: its addresses
// go with it, its alerts stay.
func (s *Server) deleteWatchlist(c *gin.Context) error {
	if err := s.Watchlists.Delete(c.Request.Context(), principalOf(c).DeveloperID, c.Param("id")); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

// listWatchlists is GET /v1/compliance/watchlists, oldest first.
func (s *Server) listWatchlists(c *gin.Context) error {
	out, pg, err := developerPage(s, c, s.readIDPage, "watchlists", s.Watchlists.List, watchlistJSON,
		func(w *cairn.Watchlist) string { return w.ID })
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.WatchlistPage{Paging: pg, Watchlists: out})
	return nil
}

// listWatchedAddresses is GET /v1/compliance/watchlists/:id/addresses, in
// (family, canonical address) order.
func (s *Server) listWatchedAddresses(c *gin.Context) error {
	id := c.Param("id")
	out, pg, err := developerPage(s, c, s.readPage, "watched/"+id,
		func(ctx context.Context, dev, after string, limit int) ([]cairn.WatchedAddress, error) {
			return s.Watchlists.Addresses(ctx, dev, id, after, limit)
		}, func(a *cairn.WatchedAddress) wire.WatchedAddress {
			return wire.WatchedAddress{Address: a.Input, Chain: a.Chain, Family: a.Family, CanonicalAddress: a.Address, AddedAt: wire.At(a.AddedAt)}
		}, func(a *cairn.WatchedAddress) string { return compliance.WatchPosition(*a) })
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.WatchedAddressPage{Addresses: out, Paging: pg})
	return nil
}

// listAlerts is GET /v1/compliance/alerts, newest first.
func (s *Server) listAlerts(c *gin.Context) error {
	out, pg, err := developerPage(s, c, s.readIDPage, "alerts", s.Watchlists.Alerts,
		func(a *cairn.WatchAlert) wire.Alert { return compliance.AlertJSON(*a) }, func(a *cairn.WatchAlert) string { return a.ID })
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.AlertPage{Alerts: out, Paging: pg})
	return nil
}

func watchlistJSON(w *cairn.Watchlist) wire.Watchlist {
	return wire.Watchlist{ID: w.ID, Name: w.Name, AddressCount: w.Addresses, CreatedAt: wire.At(w.CreatedAt), UpdatedAt: wire.At(w.UpdatedAt)}
}

func rejectedJSON(bad []compliance.Rejected) []wire.RejectedAddress {
	out := make([]wire.RejectedAddress, len(bad))
	for i, r := range bad {
		out[i] = wire.RejectedAddress{Index: r.Index, Address: r.Address, Chain: r.Chain, Reason: r.Reason}
	}
	return out
}
