# named stateful objects: counter, quota, limit, referenced directly and via maps
nft -c -f @FILE
nft -f @FILE
