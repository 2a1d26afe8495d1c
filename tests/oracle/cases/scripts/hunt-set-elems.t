nft add table ip t
nft add set ip t s { type ipv4_addr\; }
nft add element ip t s { 1.1.1.1 }
nft add element ip t s { 1.1.1.1 }
nft create element ip t s { 1.1.1.1 }
nft create element ip t s { 2.2.2.2, 2.2.2.2 }
nft add element ip t s { 3.3.3.3, 3.3.3.3 }
nft delete element ip t s { 9.9.9.9 }
nft delete element ip t s { 1.1.1.1, 1.1.1.1 }
nft add set ip t i { type ipv4_addr\; flags interval\; }
nft add element ip t i { 10.0.0.0/8 }
nft add element ip t i { 10.1.0.0/16 }
nft add element ip t i { 10.0.0.0/8 }
nft create element ip t i { 10.0.0.0/8 }
nft add element ip t i { 11.0.0.0-12.0.0.0 }
nft add element ip t i { 12.0.0.0-13.0.0.0 }
nft add set ip t am { type ipv4_addr\; flags interval\; auto-merge\; }
nft add element ip t am { 10.0.0.0/8 }
nft add element ip t am { 11.0.0.0/8 }
nft add element ip t am { 10.1.0.0/16 }
nft add element ip t am { 9.0.0.0-10.0.0.5 }
nft list ruleset
nft delete element ip t am { 10.0.0.0/8 }
nft delete element ip t am { 10.0.0.0/7 }
nft list ruleset
nft add map ip t m { type ipv4_addr : mark\; }
nft add element ip t m { 1.1.1.1 : 1 }
nft add element ip t m { 1.1.1.1 : 2 }
nft create element ip t m { 1.1.1.1 : 1 }
nft add element ip t m { 1.1.1.1 : 1 }
nft list map ip t m
nft list set ip t tm
nft add set ip t c { typeof ip saddr . tcp dport\; comment '"concat"'\; }
nft add element ip t c { 1.1.1.1 . 22 comment '"ssh"', 2.2.2.2 . 80 }
nft add set ip t ci { typeof ip saddr . ip daddr\; flags interval\; }
nft add element ip t ci { 10.0.0.0/8 . 1.1.1.1-1.1.1.9 }
nft add element ip t ci { 10.0.0.0/8 . 1.1.1.5-1.1.1.20 }
nft -a list ruleset
nft -j list set ip t c
