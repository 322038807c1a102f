import re,sys
# Builds a synthetic SDN_ADVANCED.XML of ~100 MB (the real excerpt's non-address parties repeated)
# for the ElementTree reference. Usage, from the repository root: python3 bench/ingest/mk_synth.py OUT.xml
s=open('ingest/testdata/ofac_xml/sdn_advanced_excerpt.xml','rb').read()
parties=re.findall(rb'(?s)\s*<DistinctParty FixedRef="\d+">.*?</DistinctParty>',s)
entries={re.search(rb'ProfileID="(\d+)"',e).group(1):e for e in re.findall(rb'(?s)\s*<SanctionsEntry ID="\d+" ProfileID="\d+".*?</SanctionsEntry>',s)}
nc=[p for p in parties if b'Digital' not in p and not re.search(rb'FeatureTypeID="(344|345|444|566|686|687|688|689|706|726|746|887|907|989|992|998|1007|1008|1167)"',p)]
print(len(nc), file=sys.stderr)
ep=s.index(b'\r\n  </DistinctParties>'); ee=s.index(b'\r\n  </SanctionsEntries>')
per=sum(len(p) for p in nc)*2
reps=(100*2**20-len(s))//per
ps=[];es=[]
for k in range(reps):
    for p in nc:
        pid=re.search(rb'<Profile ID="(\d+)"',p).group(1)
        ps.append(p.replace(b'<Profile ID="'+pid+b'"',b'<Profile ID="'+pid+b'%07d"'%k))
        e=entries[pid]
        es.append(e.replace(b'ProfileID="'+pid+b'"',b'ProfileID="'+pid+b'%07d"'%k))
open(sys.argv[1],'wb').write(s[:ep]+b''.join(ps)+s[ep:ee]+b''.join(es)+s[ee:])
