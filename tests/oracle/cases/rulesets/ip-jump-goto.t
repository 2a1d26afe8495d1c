# user chains reached by jump and goto, return and continue, nested
nft -c -f @FILE
nft -f @FILE
