# inline limit statements
nft -c -f @FILE
nft -f @FILE
