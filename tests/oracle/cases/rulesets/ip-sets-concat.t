# concatenated sets, with and without interval flag
nft -c -f @FILE
nft -f @FILE
