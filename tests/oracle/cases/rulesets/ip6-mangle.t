# ip6 mangling
nft -c -f @FILE
nft -f @FILE
