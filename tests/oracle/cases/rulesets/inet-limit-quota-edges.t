# inline limit and quota at their edges (depleted quota, huge buckets)
nft -c -f @FILE
nft -f @FILE
