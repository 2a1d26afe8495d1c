# bridge family base chains on every hook with named priorities
nft -c -f @FILE
nft -f @FILE
