# netdev egress chains
nft -c -f @FILE
nft -f @FILE
