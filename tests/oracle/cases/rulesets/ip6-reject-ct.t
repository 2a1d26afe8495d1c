# ip6 reject variants and conntrack
nft -c -f @FILE
nft -f @FILE
