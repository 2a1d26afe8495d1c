# ct expectation objects
nft -c -f @FILE
nft -f @FILE
