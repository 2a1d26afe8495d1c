# tcp option matches and mangling, ip option matches
nft -c -f @FILE
nft -f @FILE
