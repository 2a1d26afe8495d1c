# conntrack statements: notrack, zone, mark, label, helper objects
nft -c -f @FILE
nft -f @FILE
