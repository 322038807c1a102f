package cairn

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"sync"
	"time"
)

// NewID returns a new UUID version 7 (RFC 9562) string: 48 bits of Unix
// milliseconds, then random bits, so identifiers created later sort later.
// Within one millisecond a process-wide counter keeps them increasing.
func NewID() string { return formatUUID(newV7(time.Now())) }

// NewRandomID returns a new UUID version 4 (RFC 9562) string: 122 random
// bits, for identifiers that are capabilities (whoever holds one may read
// what it names), which must not be guessable from the time they were made.
func NewRandomID() string {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		panic("cairn: crypto/rand failed: " + err.Error())
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return formatUUID(u)
}

var (
	v7mu   sync.Mutex
	v7last uint64 // last ms
	v7seq  uint16 // 12-bit sequence within that ms
)

func newV7(now time.Time) [16]byte {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		panic("cairn: crypto/rand failed: " + err.Error())
	}
	ms := uint64(now.UnixMilli())
	v7mu.Lock()
	if ms <= v7last {
		ms = v7last
		v7seq++
		if v7seq > 0x0fff { // sequence exhausted: borrow the next millisecond
			ms++
			v7seq = 0
		}
	} else {
		v7seq = uint16(u[6]&0x03)<<8 | uint16(u[7]) // random start, room to grow
	}
	v7last = ms
	seq := v7seq
	v7mu.Unlock()

	var b [8]byte
	binary.BigEndian.PutUint64(b[:], ms<<16)
	copy(u[0:6], b[0:6])
	u[6] = 0x70 | byte(seq>>8)&0x0f
	u[7] = byte(seq)
	u[8] = u[8]&0x3f | 0x80 // RFC 9562 variant
	return u
}

func formatUUID(u [16]byte) string {
	var buf [36]byte
	hex.Encode(buf[0:8], u[0:4])
	buf[8] = '-'
	hex.Encode(buf[9:13], u[4:6])
	buf[13] = '-'
	hex.Encode(buf[14:18], u[6:8])
	buf[18] = '-'
	hex.Encode(buf[19:23], u[8:10])
	buf[23] = '-'
	hex.Encode(buf[24:], u[10:16])
	return string(buf[:])
}

// ValidID reports whether s is a UUID in canonical lower-case text form.
// Handlers use it to turn a malformed id into a 404 without a store read.
func ValidID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return false
			}
		}
	}
	return true
}
