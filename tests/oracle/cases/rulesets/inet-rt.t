# rt expressions: route nexthop, realm, ipsec; meta rtclassid
nft -c -f @FILE
nft -f @FILE
