# inet family nat with per-family addresses
nft -c -f @FILE
nft -f @FILE
