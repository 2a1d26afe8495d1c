# one file defining tables in every family
nft -c -f @FILE
nft -f @FILE
