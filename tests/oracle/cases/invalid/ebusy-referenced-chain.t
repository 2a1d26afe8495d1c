# EBUSY: deleting a chain still referenced by a jump, goto or vmap element
nft -f @FILE
nft delete chain ip t j
nft delete chain ip t g
nft delete chain ip t v
nft delete chain ip t anon
nft "delete chain ip t j; delete chain ip t g"
nft list ruleset
