# element operations on interval sets: add, delete, get, merge, partial delete
nft add table inet t
nft add set inet t s { type ipv4_addr ; flags interval ; }
nft add element inet t s { 10.0.0.0/8, 192.168.1.0-192.168.1.100 }
nft add element inet t s { 172.16.0.1 }
nft list set inet t s
nft get element inet t s { 10.1.2.3 }
nft get element inet t s { 192.168.1.50 }
nft get element inet t s { 11.0.0.1 }
nft delete element inet t s { 10.0.0.0/8 }
nft delete element inet t s { 192.168.1.0-192.168.1.50 }
nft list set inet t s
nft add set inet t m { type ipv4_addr ; flags interval ; auto-merge ; }
nft add element inet t m { 10.0.0.1, 10.0.0.2 }
nft add element inet t m { 10.0.0.3-10.0.0.10 }
nft list set inet t m
nft add set inet t p { type inet_service ; flags interval ; }
nft add element inet t p { 1-100, 200-300 }
nft delete element inet t p { 1-100 }
nft list set inet t p
