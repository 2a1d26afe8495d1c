# auto-merge collapses adjacent and overlapping intervals
nft -c -f @FILE
nft -f @FILE
