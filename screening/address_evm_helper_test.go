package screening

// eip55 returns the EIP-55 checksummed form of a canonical EVM address.
func eip55(canonical string) string {
	b := []byte(canonical)
	sum := keccak256(b[2:])
	for i := 0; i < 40; i++ {
		nibble := sum[i/2]
		if i%2 == 0 {
			nibble >>= 4
		}
		if c := b[2+i]; c >= 'a' && nibble&0xf >= 8 {
			b[2+i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
