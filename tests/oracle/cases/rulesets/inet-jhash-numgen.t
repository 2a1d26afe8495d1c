# jhash and numgen random
nft -c -f @FILE
nft -f @FILE
