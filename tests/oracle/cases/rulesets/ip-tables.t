# tables only: empty, commented, several families side by side
nft -c -f @FILE
nft -f @FILE
