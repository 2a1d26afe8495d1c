# interval sets: ranges, prefixes, single addresses, auto-merge
nft -c -f @FILE
nft -f @FILE
