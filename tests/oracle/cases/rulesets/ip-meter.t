# legacy meter syntax (turned into a dynamic set)
nft -c -f @FILE
nft -f @FILE
