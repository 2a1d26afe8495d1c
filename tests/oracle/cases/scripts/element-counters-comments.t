# elements carrying counters and comments added and deleted incrementally
nft add table ip t
nft add set ip t s { type ipv4_addr ; counter ; }
nft add element ip t s { 1.1.1.1 }
nft add element ip t s { 2.2.2.2 counter }
nft add element ip t s { 3.3.3.3 comment '"three"' }
nft list set ip t s
nft delete element ip t s { 1.1.1.1 }
nft list set ip t s
nft add set ip t k { type inet_service ; }
nft add element ip t k { 22 comment '"ssh"', 80 }
nft list set ip t k
