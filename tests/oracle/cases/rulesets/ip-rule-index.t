# position-dependent commands inside one file: insert/add with index
nft -c -f @FILE
nft -f @FILE
