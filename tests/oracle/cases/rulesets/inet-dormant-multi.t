# several inet tables, one dormant, with identical chain names
nft -c -f @FILE
nft -f @FILE
