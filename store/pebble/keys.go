package pebble

import (
	"encoding/binary"
	"fmt"

	"github.com/cairn-dev/cairn"
)

// Key layout. Every key begins with exactly one of the prefixes below, and
// no prefix is a prefix of another (TestPrefixesDisjoint checks it). Keys
// sort the way they are scanned: variable-length components are escaped and
// terminated (appendComponent) so that they sort like the strings they hold,
// and sequence numbers are big-endian so that a reverse seek lists the
// newest entries first.
//
//	dev/<devID>                          Developer (JSON)
//	agent/<agentID>                      Agent (JSON)
//	agentkey/<keyHash>                   agent id whose current API key hashes to keyHash
//	depidx/<index BE uint32>             agent id holding the deposit index
//	ledger/<devID><seq BE uint64>        LedgerEntry (JSON)
//	ledgeruniq/<uniqueKey>               "<devID>/<seq>" of the entry that used the key
//	ledgertime/<createdAt BE ns><devID><seq BE uint64>  empty: every ledger entry by time
//	audit/<agentID><id>                  AuditEntry (JSON); ids are UUIDv7, so by time
//	auditact/<agentID><action><id>       empty: index of audit entries by action
//	setting/<name>                       the setting's bytes
//	meta/<name>                          service-wide counters (meta/depositnext, meta/screenings)
//	freetier/<devID>                     free screening window: start (BE int64 Unix ns), used (BE uint64)
//	settled/<at BE ns><chargeID>         empty: a charge that stands with no effect logged
//	idem/r/<agentID><route><key>         IdempotencyRecord (JSON)
//	idem/x/<expiresAt BE ns><agentID><route><key>  empty: records by expiry, for the sweep
//	anchor/<target><listVersion BE uint64>  cairn.Anchor (JSON): on-chain anchoring of a list version
//	rate/<key>                           stored rate limit counter: theoretical arrival time (BE int64 Unix ns)
//	proof/<screeningID>                  screening proof document (compressed by the compliance service)
//	watch/...                            watchlists, their addresses, the index of watched addresses and
//	                                     alerts (layout: watch.go)
//	hook/...                             webhook endpoints, deliveries and their queue (layout: webhooks.go)
//	mem/...                              memory heads, versions and their indexes (layout: memory_keys.go)
//	media/...                            media records and their indexes (layout: media.go)
//	scr/...                              sanctions list versions, segments and history (layout:
//	                                     compliance.go) and community reports (layout: reports.go)
//
// Adding a record kind: give it a new prefix in the const block below (a
// short lower-case word and a slash, not the beginning of another prefix),
// add it to the prefixes list, document its layout in the table above and
// build its keys only with the helpers in this file. The exported prefixes
// (mem/, media/, scr/) each hold several record kinds whose sub-prefixes
// (a letter and a slash) are laid out in the file named in the table; a new
// kind inside one takes a letter no other kind there uses. Code that writes
// through DB.Pebble directly must follow the same rule and stay inside its
// own prefix.
const (
	prefixDev        = "dev/"
	prefixAgent      = "agent/"
	prefixAgentKey   = "agentkey/"
	prefixDepIdx     = "depidx/"
	prefixLedger     = "ledger/"
	prefixLedgerUniq = "ledgeruniq/"
	prefixLedgerTime = "ledgertime/"
	prefixAudit      = "audit/"
	prefixAuditAct   = "auditact/"
	prefixSetting    = "setting/"
	prefixMeta       = "meta/"
	prefixFreeTier   = "freetier/"
	prefixIdem       = "idem/"
	prefixSettled    = "settled/"
	prefixAnchor     = "anchor/"
	prefixRate       = "rate/"
	prefixProof      = "proof/"
	prefixWatch      = "watch/"
	prefixHook       = "hook/"

	// PrefixMemory holds memory heads, versions and their indexes.
	PrefixMemory = "mem/"
	// PrefixMedia holds media file records and their indexes.
	PrefixMedia = "media/"
	// PrefixCompliance holds sanctions list versions, their segments and
	// history, and community reports with their escalations.
	PrefixCompliance = "scr/"
)

// prefixes is every top-level prefix in use.
var prefixes = []string{
	prefixDev, prefixAgent, prefixAgentKey, prefixDepIdx, prefixLedger,
	prefixLedgerUniq, prefixLedgerTime, prefixAudit, prefixAuditAct, prefixSetting, prefixMeta, prefixFreeTier, prefixIdem, prefixSettled, prefixAnchor, prefixRate, prefixProof, prefixWatch, prefixHook,
	PrefixMemory, PrefixMedia, PrefixCompliance,
}

var (
	keyDepositNext = []byte(prefixMeta + "depositnext")
	keyScreenings  = []byte(prefixMeta + "screenings")
)

// appendComponent appends s escaped and terminated: 0x00 becomes 0x00 0xff
// and the component ends with 0x00 0x01. Encoded components compare like the
// raw strings, and no encoded component is a prefix of another, so
// "ledger/a" never scans into "ledger/a/b".
func appendComponent(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			dst = append(dst, 0x00, 0xff)
		} else {
			dst = append(dst, s[i])
		}
	}
	return append(dst, 0x00, 0x01)
}

// readComponent decodes the component at the start of b and returns it with
// the bytes that follow it.
func readComponent(b []byte) (string, []byte, error) {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != 0 {
			out = append(out, b[i])
			continue
		}
		if i+1 == len(b) {
			return "", nil, fmt.Errorf("pebble: truncated key component %q", b)
		}
		switch b[i+1] {
		case 0xff:
			out = append(out, 0)
			i++
		case 0x01:
			return string(out), b[i+2:], nil
		default:
			return "", nil, fmt.Errorf("pebble: bad escape in key component %q", b)
		}
	}
	return "", nil, fmt.Errorf("pebble: unterminated key component %q", b)
}

// prefixEnd returns the smallest key greater than every key starting with p.
func prefixEnd(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] != 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil // p is all 0xff: no upper bound
}

func key(prefix string, parts ...string) []byte {
	n := len(prefix)
	for _, p := range parts {
		n += len(p) + 2
	}
	k := append(make([]byte, 0, n), prefix...)
	for _, p := range parts {
		k = appendComponent(k, p)
	}
	return k
}

func devKey(id string) []byte         { return key(prefixDev, id) }
func agentKey(id string) []byte       { return key(prefixAgent, id) }
func keyHashKey(h []byte) []byte      { return key(prefixAgentKey, string(h)) }
func settingKey(n string) []byte      { return key(prefixSetting, n) }
func freeTierKey(dev string) []byte   { return key(prefixFreeTier, dev) }
func uniqueKey(uk string) []byte      { return key(prefixLedgerUniq, uk) }
func ledgerPrefix(dev string) []byte  { return key(prefixLedger, dev) }
func auditPrefix(agent string) []byte { return key(prefixAudit, agent) }

func depIdxKey(i uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte(prefixDepIdx), i)
}

func ledgerKey(dev string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(ledgerPrefix(dev), seq)
}

func ledgerTimeKey(e *cairn.LedgerEntry) []byte {
	k := binary.BigEndian.AppendUint64([]byte(prefixLedgerTime), uint64(e.CreatedAt.UnixNano()))
	return binary.BigEndian.AppendUint64(appendComponent(k, e.DeveloperID), e.Seq)
}

func auditKey(agent, id string) []byte { return appendComponent(auditPrefix(agent), id) }

func auditActPrefix(agent, action string) []byte { return key(prefixAuditAct, agent, action) }

func auditActKey(agent, action, id string) []byte {
	return appendComponent(auditActPrefix(agent, action), id)
}
