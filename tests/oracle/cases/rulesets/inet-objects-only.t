# stateful objects of every type and object maps, rules not using them
nft -c -f @FILE
nft -f @FILE
