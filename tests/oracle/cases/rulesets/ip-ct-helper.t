# ct helper objects assigned from rules and maps
nft -c -f @FILE
nft -f @FILE
