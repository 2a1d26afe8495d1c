# every verdict form in base and user chains
nft -c -f @FILE
nft -f @FILE
