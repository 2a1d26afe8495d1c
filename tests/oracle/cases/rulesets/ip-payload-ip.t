# ip header payload matches: addresses, prefixes, ranges, fields
nft -c -f @FILE
nft -f @FILE
