# ipv6 extension header matches
nft -c -f @FILE
nft -f @FILE
