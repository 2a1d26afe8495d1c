# elements with timeouts are added and deleted again (no expiry left to list)
nft add table ip t
nft add set ip t s { type ipv4_addr ; flags timeout ; timeout 1h ; }
nft add element ip t s { 1.1.1.1, 2.2.2.2 timeout 30s }
nft add element ip t s { 3.3.3.3 timeout 1d expires 1h }
nft delete element ip t s { 1.1.1.1, 2.2.2.2, 3.3.3.3 }
nft list set ip t s
nft add set ip t d { type ipv4_addr ; flags dynamic,timeout ; timeout 10m ; size 16 ; }
nft add element ip t d { 4.4.4.4 }
nft delete element ip t d { 4.4.4.4 }
nft list ruleset
