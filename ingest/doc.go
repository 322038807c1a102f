// Package ingest turns sanctions sources into listed-address records and, in
// the pipeline built on these parsers, into versioned lists in the store.
//
// The parsers own the outside formats: OFAC SDN_ADVANCED.XML (the primary
// government source, gov_sdn), SDN_ENHANCED.XML, the legacy sdn.csv with its
// sdn_comments.csv overflow, OpenSanctions FollowTheMoney JSON lines
// (aggregated_sanctions) and plain one-address-per-line lists (list:<chain>).
// Every parser streams an io.Reader and calls emit once per (entity, ticker,
// address), with memory bounded by the number of listed addresses, never by
// the size of the file. Addresses are emitted as listed (trimmed, not
// normalised); normalisation per ticker belongs to the screening package.
//
// ingest may import the root package cairn, store, blob, chain, merkle and
// screening; it must not import api, cmd, or any storage or chain
// implementation (store/pebble, store/postgres, blob/s3, chain/evm,
// chain/aptos), nor gin.
package ingest
