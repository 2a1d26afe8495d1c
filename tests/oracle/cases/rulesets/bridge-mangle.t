# bridge family statements: mark, ether mangling, counters, log, limit
nft -c -f @FILE
nft -f @FILE
