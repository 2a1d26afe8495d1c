# a file that adds, deletes and flushes within the same transaction
nft -c -f @FILE
nft -f @FILE
