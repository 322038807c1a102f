-- 0003_ledger_origin: the service instance that took a charge, so that the
-- start-up recovery of one replica refunds only its own interrupted
-- requests.

ALTER TABLE ledger ADD COLUMN origin text NOT NULL DEFAULT '';
