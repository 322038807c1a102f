package api

import (
	"context"
	"net/http"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// webhookRoutes registers the developer account's webhooks and their
// deliveries.
func (s *Server) webhookRoutes(v1 *gin.RouterGroup) {
	g := v1.Group("/webhooks", s.agentOrDeveloperAuth, s.limited())
	g.POST("", strictBody[wire.WebhookRequest](), h(s.createWebhook))
	g.GET("", h(s.listWebhooks))
	g.GET("/:id", h(s.getWebhook))
	g.DELETE("/:id", h(s.deleteWebhook))
	g.POST("/:id/rotate-secret", h(s.rotateWebhookSecret))
	g.POST("/:id/enable", h(s.enableWebhook))
	g.GET("/:id/deliveries", h(s.listWebhookDeliveries))
	g.POST("/:id/deliveries/:deliveryId/redeliver", h(s.redeliver))
}

// createWebhook is POST /v1/webhooks: the endpoint with its secret, shown
// once.
func (s *Server) createWebhook(c *gin.Context) error {
	var in wire.WebhookRequest
	if err := bindJSON(c, &in, false); err != nil {
		return err
	}
	e, err := s.Webhooks.Create(c.Request.Context(), principalOf(c).DeveloperID, in.URL, in.Events)
	return respond(c, http.StatusCreated, e, err, webhookWithSecret)
}

// getWebhook is GET /v1/webhooks/:id (no secret).
func (s *Server) getWebhook(c *gin.Context) error {
	e, err := s.Webhooks.Store.Endpoint(c.Request.Context(), principalOf(c).DeveloperID, c.Param("id"))
	return respond(c, http.StatusOK, e, err, webhookJSON)
}

// deleteWebhook is DELETE /v1/webhooks/:id: its deliveries go with it.
func (s *Server) deleteWebhook(c *gin.Context) error {
	if err := s.Webhooks.Store.DeleteEndpoint(c.Request.Context(), principalOf(c).DeveloperID, c.Param("id")); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

// rotateWebhookSecret is POST /v1/webhooks/:id/rotate-secret: the new
// secret, shown once; the old one signs no more.
func (s *Server) rotateWebhookSecret(c *gin.Context) error {
	e, err := s.Webhooks.RotateSecret(c.Request.Context(), principalOf(c).DeveloperID, c.Param("id"))
	return respond(c, http.StatusOK, e, err, webhookWithSecret)
}

// enableWebhook is POST /v1/webhooks/:id/enable: a disabled endpoint
// takes deliveries again.
func (s *Server) enableWebhook(c *gin.Context) error {
	e, err := s.Webhooks.Enable(c.Request.Context(), principalOf(c).DeveloperID, c.Param("id"))
	return respond(c, http.StatusOK, e, err, webhookJSON)
}

// listWebhooks is GET /v1/webhooks, oldest first.
func (s *Server) listWebhooks(c *gin.Context) error {
	out, pg, err := developerPage(s, c, s.readIDPage, "webhooks", s.Webhooks.Store.ListEndpoints, webhookJSON,
		func(e *cairn.WebhookEndpoint) string { return e.ID })
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.WebhookPage{Paging: pg, Webhooks: out})
	return nil
}

// listWebhookDeliveries is GET /v1/webhooks/:id/deliveries, newest first.
func (s *Server) listWebhookDeliveries(c *gin.Context) error {
	id := c.Param("id")
	out, pg, err := developerPage(s, c, s.readIDPage, "deliveries/"+id,
		func(ctx context.Context, dev, after string, limit int) ([]cairn.WebhookDelivery, error) {
			return s.Webhooks.Store.ListDeliveries(ctx, dev, id, after, limit)
		}, deliveryJSON, func(d *cairn.WebhookDelivery) string { return d.ID })
	if err != nil {
		return err
	}
	writeJSON(c, http.StatusOK, wire.WebhookDeliveryPage{Deliveries: out, Paging: pg})
	return nil
}

// redeliver is POST /v1/webhooks/:id/deliveries/:deliveryId/redeliver:
// the delivery is due now again, with a new day of retries.
func (s *Server) redeliver(c *gin.Context) error {
	dev := principalOf(c).DeveloperID
	d, err := s.Webhooks.Store.Delivery(c.Request.Context(), dev, c.Param("deliveryId"))
	if err != nil {
		return err
	}
	if d.EndpointID != c.Param("id") {
		return cairn.Errorf(cairn.ENOTFOUND, "Delivery not found.").With("deliveryId", d.ID)
	}
	d, err = s.Webhooks.Redeliver(c.Request.Context(), dev, d.ID)
	return respond(c, http.StatusAccepted, d, err, deliveryJSON)
}

// webhookWithSecret is the endpoint with its secret, in the answers that
// show it once.
func webhookWithSecret(e *cairn.WebhookEndpoint) wire.Webhook {
	out := webhookJSON(e)
	out.Secret = e.Secret
	return out
}

func webhookJSON(e *cairn.WebhookEndpoint) wire.Webhook {
	out := wire.Webhook{ID: e.ID, URL: e.URL, Events: e.Events, Enabled: !e.Disabled, CreatedAt: wire.At(e.CreatedAt)}
	if e.Disabled {
		out.DisabledReason = &e.Reason
	}
	if !e.FailingSince.IsZero() {
		t := wire.At(e.FailingSince)
		out.FailingSince = &t
	}
	return out
}

func deliveryJSON(d *cairn.WebhookDelivery) wire.WebhookDelivery {
	out := wire.WebhookDelivery{ID: d.ID, EventType: d.Type, Status: d.Status, Attempts: d.Attempts, CreatedAt: wire.At(d.CreatedAt)}
	if d.Status == cairn.DeliveryPending {
		t := wire.At(d.NextAttemptAt)
		out.NextAttemptAt = &t
	}
	if d.Attempts > 0 {
		t, st, e := wire.At(d.LastAttemptAt), d.LastStatus, d.LastError
		out.LastAttemptAt, out.LastStatus, out.LastError = &t, &st, &e
	}
	return out
}
