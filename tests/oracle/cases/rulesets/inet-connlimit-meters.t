# connection limits and per-source meters
nft -c -f @FILE
nft -f @FILE
