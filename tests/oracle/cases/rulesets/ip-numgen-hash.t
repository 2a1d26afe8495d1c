# numgen, jhash and symhash in matches, mark setting and nat maps
nft -c -f @FILE
nft -f @FILE
