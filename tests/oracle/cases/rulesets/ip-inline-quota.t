# inline quota statements
nft -c -f @FILE
nft -f @FILE
