# arp family with named sets and maps
nft -c -f @FILE
nft -f @FILE
