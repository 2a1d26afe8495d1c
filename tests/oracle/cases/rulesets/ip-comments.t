# comments on tables, chains, rules, sets, maps, elements and objects
nft -c -f @FILE
nft -f @FILE
