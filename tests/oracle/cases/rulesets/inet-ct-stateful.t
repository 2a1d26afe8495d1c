# arp family: input/output chains and arp header matches
nft -c -f @FILE
nft -f @FILE
