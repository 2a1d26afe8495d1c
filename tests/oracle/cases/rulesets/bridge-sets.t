# bridge family sets, concatenations and vmaps
nft -c -f @FILE
nft -f @FILE
