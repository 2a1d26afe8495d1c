# conntrack matches
nft -c -f @FILE
nft -f @FILE
