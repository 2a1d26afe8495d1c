# maps of limit and quota objects keyed by concatenations
nft -c -f @FILE
nft -f @FILE
