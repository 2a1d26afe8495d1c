# meta statements: setting mark, priority, nftrace, pkttype
nft -c -f @FILE
nft -f @FILE
