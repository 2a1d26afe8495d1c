# arp family with named counters, quotas and limits
nft -c -f @FILE
nft -f @FILE
