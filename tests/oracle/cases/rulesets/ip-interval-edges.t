# interval edge cases: full range, last address, adjacent ranges, single ports at the ends
nft -c -f @FILE
nft -f @FILE
