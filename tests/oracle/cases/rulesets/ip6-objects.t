# ip6 stateful objects and object maps
nft -c -f @FILE
nft -f @FILE
