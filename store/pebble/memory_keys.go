package pebble

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"time"

	"github.com/cairn-dev/cairn"
)

// Memory keys, inside the reserved PrefixMemory. Version numbers, times and
// importances are big-endian so that a reverse seek lists the newest (or
// most important) first; ids are UUIDv7, so by time.
//
//	mem/h/<agentID><memoryID>                      cairn.Memory (JSON): the head
//	mem/v/<agentID><memoryID><version BE uint32>   cairn.MemoryVersion (JSON)
//	mem/i/<agentID><versionID>                     memoryID + version BE uint32: any version's id
//	mem/k/<agentID><key>                           memoryID: one memory per key and agent
//	mem/u/<agentID><updatedAt BE ns><memoryID>     empty: order by updatedAt
//	mem/p/<agentID><importance bits BE><memoryID>  empty: order by importance
//	mem/e/<agentID><expiresAt BE ns><memoryID>     empty: unpinned memories by expiry, per agent
//	mem/x/<expiresAt BE ns><agentID><memoryID>     empty: unpinned memories by expiry, all agents
const (
	memHead    = PrefixMemory + "h/"
	memVersion = PrefixMemory + "v/"
	memByID    = PrefixMemory + "i/"
	memByKey   = PrefixMemory + "k/"
	memUpdated = PrefixMemory + "u/"
	memImport  = PrefixMemory + "p/"
	memExpiry  = PrefixMemory + "e/"
	memSweep   = PrefixMemory + "x/"
)

func memHeadKey(agent, id string) []byte { return key(memHead, agent, id) }
func memKeyKey(agent, k string) []byte   { return key(memByKey, agent, k) }
func memIDKey(agent, vid string) []byte  { return key(memByID, agent, vid) }

func memVersionPrefix(agent, id string) []byte { return key(memVersion, agent, id) }

func memVersionKey(agent, id string, v int) []byte {
	return binary.BigEndian.AppendUint32(memVersionPrefix(agent, id), uint32(v))
}

func appendTime(k []byte, t time.Time) []byte {
	return binary.BigEndian.AppendUint64(k, uint64(t.UnixNano()))
}

func memUpdatedKey(m *memRow) []byte {
	return appendComponent(appendTime(key(memUpdated, m.AgentID), m.UpdatedAt), m.ID)
}

// memImportKey orders by importance: the IEEE bits of a non-negative float
// sort like the float.
func memImportKey(m *memRow) []byte {
	k := binary.BigEndian.AppendUint64(key(memImport, m.AgentID), math.Float64bits(math.Max(0, m.Importance)))
	return appendComponent(k, m.ID)
}

func memExpiryKey(m *memRow) []byte {
	return appendComponent(appendTime(key(memExpiry, m.AgentID), m.ExpiresAt), m.ID)
}

func memSweepKey(m *memRow) []byte {
	return appendComponent(appendComponent(appendTime([]byte(memSweep), m.ExpiresAt), m.AgentID), m.ID)
}

// memIDValue is the value of a mem/i entry.
func memIDValue(memoryID string, v int) []byte {
	return binary.BigEndian.AppendUint32([]byte(memoryID), uint32(v))
}

func parseMemIDValue(b []byte) (string, int, bool) {
	if len(b) < 5 {
		return "", 0, false
	}
	n := len(b) - 4
	return string(b[:n]), int(binary.BigEndian.Uint32(b[n:])), true
}

// encodePos and decodePos turn an index key into a listing position and
// back; a position outside lower's range is EINVALID.
func encodePos(k []byte) string { return hex.EncodeToString(k) }

func decodePos(s string, lower []byte) ([]byte, error) {
	k, err := hex.DecodeString(s)
	if err != nil || len(k) <= len(lower) || string(k[:len(lower)]) != string(lower) {
		return nil, cairn.InvalidCursor()
	}
	return k, nil
}
