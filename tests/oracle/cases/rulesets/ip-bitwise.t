# bitwise and shift expressions in matches and statements
nft -c -f @FILE
nft -f @FILE
