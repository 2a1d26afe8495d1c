# concatenated interval sets (pipapo) with prefixes and ranges in several fields
nft -c -f @FILE
nft -f @FILE
