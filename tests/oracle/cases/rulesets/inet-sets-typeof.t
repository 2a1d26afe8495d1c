# sets and maps declared with typeof
nft -c -f @FILE
nft -f @FILE
