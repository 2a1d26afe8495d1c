# inet chains mixing ip and ip6 matches, nfproto, l4proto
nft -c -f @FILE
nft -f @FILE
