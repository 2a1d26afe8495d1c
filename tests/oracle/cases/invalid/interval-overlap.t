# interval sets: overlapping elements and partial deletes are refused
nft add table ip t
nft add set ip t s { type ipv4_addr ; flags interval ; }
nft add element ip t s { 10.0.0.0/8 }
nft add element ip t s { 10.1.0.0/16 }
nft add element ip t s { 9.0.0.0-10.0.0.1 }
nft add element ip t s { 10.0.0.0/16, 10.0.0.0/24 }
nft delete element ip t s { 10.0.0.0/16 }
nft delete element ip t s { 11.0.0.0/8 }
nft -f @FILE
nft list ruleset
