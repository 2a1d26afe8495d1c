# inet reject with icmpx, family-specific types
nft -c -f @FILE
nft -f @FILE
