# set size limits and constant sets
nft add table ip t
nft add set ip t s { type ipv4_addr ; size 2 ; }
nft add element ip t s { 1.1.1.1, 2.2.2.2 }
nft add element ip t s { 3.3.3.3 }
nft delete element ip t s { 1.1.1.1 }
nft add element ip t s { 3.3.3.3 }
nft add set ip t k { type ipv4_addr ; flags constant ; elements = { 1.1.1.1 } ; }
nft add element ip t k { 2.2.2.2 }
nft delete element ip t k { 1.1.1.1 }
nft list ruleset
