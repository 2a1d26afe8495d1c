# large sets and maps: 1000-element hash set, 512 disjoint intervals, 256-entry vmap (generated, static)
nft -c -f @FILE
nft -f @FILE
