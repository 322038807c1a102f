package main

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/client"
	"github.com/cairn-dev/cairn/webhook/webhooktest"
)

// TestE2EClientWatchlists drives the client's watchlist, alert and
// webhook calls against a real server with a real receiver: a watched
// address listed by a new version comes back as an alert and as a signed
// watchlist.hit.
func TestE2EClientWatchlists(t *testing.T) {
	cfg, list := complianceConfig(t)
	cfg.WebhookAllowPrivate, cfg.WebhookPollInterval = true, 50*time.Millisecond
	ts := startServer(t, cfg)
	ctx := context.Background()
	pub := client.New(ts.base, "", client.WithAdminToken(admin), client.WithStrictDecoding())
	reg, err := pub.RegisterAgent(ctx, "watcher")
	if err != nil {
		t.Fatal(err)
	}
	c := pub.WithAPIKey(reg.APIKey)
	recv, hits := webhooktest.Receiver(t, nil)
	hook, err := c.CreateWebhook(ctx, recv.URL, []string{"watchlist.hit"})
	if err != nil || hook.Secret == "" {
		t.Fatalf("webhook %+v %v", hook, err)
	}
	const addr = "0x52908400098527886E0F7030069857D2E4169EE7"
	w, err := c.CreateWatchlist(ctx, "hot", []client.WatchAddress{{Address: addr, Chain: "ethereum"}, {Address: "bad", Chain: "ethereum"}})
	if err != nil || w.Added != 1 || len(w.Rejected) != 1 {
		t.Fatalf("watchlist %+v %v", w, err)
	}
	if ch, err := c.AddWatchedAddresses(ctx, w.Watchlist.ID, []client.WatchAddress{{Address: "0x" + "00000000000000000000000000000000000000b1", Chain: "eth"}}); err != nil || ch.Added != 1 || ch.Watchlist.AddressCount != 2 {
		t.Fatalf("add %+v %v", ch, err)
	}
	if pg, err := c.ListWatchedAddresses(ctx, w.Watchlist.ID, 10, ""); err != nil || len(pg.Addresses) != 2 {
		t.Fatalf("addresses %+v %v", pg, err)
	}
	orig, _ := os.ReadFile(list)
	if err := os.WriteFile(list, append(orig, "\n"+addr+"\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RunIngest(ctx); err != nil {
		t.Fatal(err)
	}
	got := webhooktest.Next(t, hits)
	if !got.Verify(hook.Secret) {
		t.Fatalf("unverified %+v", got)
	}
	var alerts []client.Alert
	for a, err := range c.AllAlerts(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		alerts = append(alerts, a)
	}
	if len(alerts) != 1 || alerts[0].Change != "sanctioned" || alerts[0].Address != addr {
		t.Fatalf("alerts %+v", alerts)
	}
	ds, err := c.ListWebhookDeliveries(ctx, hook.ID, 10, "")
	if err != nil || len(ds.Deliveries) != 1 || ds.Deliveries[0].ID != got.ID {
		t.Fatalf("deliveries %+v %v", ds, err)
	}
	if _, err := c.RedeliverWebhook(ctx, hook.ID, got.ID); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteWebhook(ctx, hook.ID); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteWatchlist(ctx, w.Watchlist.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetWatchlist(ctx, w.Watchlist.ID); err == nil {
		t.Fatal("a deleted watchlist is found")
	}
}
