# packet mangling statements
nft -c -f @FILE
nft -f @FILE
