# data maps: mark, addresses, ports, concatenated keys, interval keys
nft -c -f @FILE
nft -f @FILE
