# every named priority keyword and arithmetic on it
nft -c -f @FILE
nft -f @FILE
