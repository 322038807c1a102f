package screening

import "iter"

// EVMAddresses yields the 20 bytes of every EVM address in the tree of
// class (ClassSanctions or ClassCommunity), in ascending order: what the
// verifier contract's oracle (isSanctioned(address)) must hold for the
// sanctions class. It reads the EVM table in place, allocating nothing.
func (ix *Index) EVMAddresses(class string) iter.Seq[[20]byte] {
	return func(yield func([20]byte) bool) {
		for i := range ix.entries.evm.slots {
			s := &ix.entries.evm.slots[i]
			if inClass(class, s.e) && !yield(s.k) {
				return
			}
		}
	}
}

// HasEVM reports whether the EVM address of 20 bytes k is in the tree of
// class.
func (ix *Index) HasEVM(class string, k [20]byte) bool {
	e, ok := ix.entries.evm.get(k)
	return ok && inClass(class, e)
}

func inClass(class string, e entry) bool {
	if class == ClassCommunity {
		return e.cleaf >= 0
	}
	return e.leaf >= 0
}
