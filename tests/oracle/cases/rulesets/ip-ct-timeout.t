# ct timeout objects
nft -c -f @FILE
nft -f @FILE
