# ip6 sets and maps: addresses, prefixes, concatenations, verdicts
nft -c -f @FILE
nft -f @FILE
