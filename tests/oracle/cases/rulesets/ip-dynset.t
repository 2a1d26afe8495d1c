# dynamic set updates from the packet path: add, update, meter-style limit per key
nft -c -f @FILE
nft -f @FILE
