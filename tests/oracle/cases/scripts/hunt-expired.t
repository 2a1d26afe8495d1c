nft add table ip t
nft add set ip t s { type ipv4_addr\; flags timeout\; }
nft add element ip t s { 1.1.1.1 timeout 1h expires 1ms, 2.2.2.2 timeout 1h expires 1ms }
nft list set ip t s
nft get element ip t s { 1.1.1.1 }
nft create element ip t s { 1.1.1.1 timeout 1h expires 1ms }
nft delete element ip t s { 2.2.2.2 }
nft add element ip t s { 2.2.2.2 timeout 1h expires 1ms }
nft delete element ip t s { 2.2.2.2 }
nft add map ip t m { type ipv4_addr : mark\; flags timeout\; }
nft add element ip t m { 1.1.1.1 timeout 1h expires 1ms : 1 }
nft add element ip t m { 1.1.1.1 : 2 }
nft list map ip t m
nft add set ip t i { type ipv4_addr\; flags interval,timeout\; }
nft add element ip t i { 10.0.0.0/8 timeout 1h expires 1ms }
nft add element ip t i { 10.0.0.0/16 }
nft list set ip t i
nft add set ip t c { typeof ip saddr . tcp dport\; flags interval,timeout\; }
nft add element ip t c { 10.0.0.0/8 . 1-10 timeout 1h expires 1ms }
nft add element ip t c { 10.0.0.0/8 . 5-20 }
nft list set ip t c
nft -a list ruleset
