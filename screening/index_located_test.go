package screening

import (
	"reflect"
	"strings"
	"testing"
)

// TestLocatedMultiProofs: the multiproofs of located addresses are those
// of their (family, canonical) pairs, in both classes and their exclusion
// trees, with and without the community list, cut or whole; and
// ScreenLocated's results are Screen's, in buffers used again.
func TestLocatedMultiProofs(t *testing.T) {
	sanctions := map[Family][]string{
		EVM:     readFamily(t, "sanctioned_addresses_ETH.txt", EVM),
		Bitcoin: readFamily(t, "sanctioned_addresses_XBT.txt", Bitcoin),
		Tron:    readFamily(t, "sanctioned_addresses_TRX.txt", Tron),
	}
	onlyCommunity := "0x1111111111111111111111111111111111111111"
	community := map[Family][]string{EVM: {onlyCommunity, sanctions[EVM][3]}}
	ix := classIndex(t, sanctions, community)
	evm := sanctions[EVM]
	qs := []Query{
		{evm[0], "ethereum"}, {strings.ToUpper(evm[1][2:]), "eth"}, {evm[0], "ethereum"}, // listed, twice
		{neighbourEVM(t, evm[5], 1), "ethereum"}, {neighbourEVM(t, evm[5], 2), "ethereum"}, // one gap twice
		{neighbourEVM(t, evm[7], -1), "ethereum"}, {onlyCommunity, "ethereum"}, {evm[3], "ethereum"},
		{"0x0000000000000000000000000000000000000000", "ethereum"}, {"0xffffffffffffffffffffffffffffffffffffffff", "ethereum"},
		{"not an address", "ethereum"}, {sanctions[Bitcoin][0], "bitcoin"}, {"1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "bitcoin"},
		{sanctions[Tron][1], "tron"}, {"TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL", "tron"}, {"junk", "tron"},
	}
	var out []Result
	var loc []Located
	for _, includeCommunity := range []bool{false, true} {
		want, err := ix.Screen(qs, includeCommunity)
		if err != nil {
			t.Fatal(err)
		}
		out, loc, err = ix.ScreenLocated(qs, includeCommunity, out, loc)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(out, want) || len(loc) != len(qs) {
			t.Fatalf("ScreenLocated gave %d results and %d locations, not Screen's", len(out), len(loc))
		}
		var pairs [][2]string
		var at []Located
		for i, r := range out {
			if r.Status != StatusInvalidAddress {
				pairs = append(pairs, [2]string{string(r.Family), r.Canonical})
				at = append(at, loc[i])
			}
		}
		for _, class := range []string{ClassSanctions, ClassCommunity} {
			for _, top := range []int{0, 7} {
				mp, values, err := ix.MultiProofInBelow(class, pairs, top)
				if err != nil {
					t.Fatal(err)
				}
				mpAt, valuesAt, err := ix.MultiProofAtBelow(class, at, top)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(mp, mpAt) || !reflect.DeepEqual(values, valuesAt) || len(values) == 0 {
					t.Fatalf("%s, top %d: the located multiproof of %d values is not the pairs' of %d", class, top, len(valuesAt), len(values))
				}
				xp, xvalues, err := ix.ExclusionMultiProofBelow(class, pairs, top)
				if err != nil {
					t.Fatal(err)
				}
				xpAt, xvaluesAt, err := ix.ExclusionMultiProofAtBelow(class, at, top)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(xp, xpAt) || !reflect.DeepEqual(xvalues, xvaluesAt) || len(xvalues) == 0 {
					t.Fatalf("%s, top %d: the located exclusion multiproof of %d gaps is not the pairs' of %d", class, top, len(xvaluesAt), len(xvalues))
				}
			}
		}
	}
	if _, _, err := ix.ScreenLocated([]Query{{evm[0], "nochain"}}, false, out, loc); err == nil {
		t.Fatal("an unknown chain screened")
	}
}
