# raw payload expressions @ll/@nh/@th
nft -c -f @FILE
nft -f @FILE
