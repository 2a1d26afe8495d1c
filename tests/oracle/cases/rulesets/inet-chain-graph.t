# deeper chain graph: many user chains, jumps, gotos, vmap targets
nft -c -f @FILE
nft -f @FILE
