# one named set per data type, including concatenations of mixed types
nft -c -f @FILE
nft -f @FILE
