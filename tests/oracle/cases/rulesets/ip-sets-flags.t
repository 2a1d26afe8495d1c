# set flags and properties that stay empty: timeout, dynamic, size, policy, gc-interval
nft -c -f @FILE
nft -f @FILE
