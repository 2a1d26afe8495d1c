# reject statements in ip family
nft -c -f @FILE
nft -f @FILE
