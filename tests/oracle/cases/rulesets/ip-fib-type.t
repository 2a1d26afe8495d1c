# fib address types in ip tables: saddr/daddr, iif/oif, sets, maps, negation, every hook
nft -c -f @FILE
nft -f @FILE
