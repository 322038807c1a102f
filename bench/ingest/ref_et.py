# Reference: the approach of 0xB10C/brave generate-address-list.py (ElementTree, whole tree in memory).
import sys, time, xml.etree.ElementTree as ET
t=time.time()
tree=ET.parse(sys.argv[1]); root=tree.getroot()
ns={'o':root.tag[1:].split('}')[0]}
ft={e.get('ID'):e.text.split(' - ')[1] for e in root.iterfind('.//o:FeatureType',ns) if e.text and e.text.startswith('Digital Currency Address - ')}
n=0
for f in root.iterfind('.//o:DistinctParty/o:Profile/o:Feature',ns):
    if f.get('FeatureTypeID') in ft:
        n+=sum(1 for _ in f.iterfind('.//o:VersionDetail',ns))
dt=time.time()-t
import os
print(f"records {n} seconds {dt:.2f} MB/s {os.path.getsize(sys.argv[1])/2**20/dt:.1f}")
