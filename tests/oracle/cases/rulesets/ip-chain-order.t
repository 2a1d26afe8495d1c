# chains declared in an order different from their use: forward references
nft -c -f @FILE
nft -f @FILE
