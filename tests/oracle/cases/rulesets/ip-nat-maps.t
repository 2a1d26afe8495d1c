# nat statements driven by maps with concatenated data, interval nat maps
nft -c -f @FILE
nft -f @FILE
