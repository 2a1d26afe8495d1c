# netdev fwd and dup statements, sets, vmaps and user chains
nft -c -f @FILE
nft -f @FILE
