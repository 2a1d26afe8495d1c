# element operations on concatenated sets, with and without intervals
nft add table ip t
nft add set ip t c { type ipv4_addr . inet_service ; }
nft add element ip t c { 10.0.0.1 . 22, 10.0.0.1 . 80, 10.0.0.2 . 22 }
nft delete element ip t c { 10.0.0.1 . 80 }
nft get element ip t c { 10.0.0.2 . 22 }
nft list set ip t c
nft add set ip t ci { type ipv4_addr . inet_service ; flags interval ; }
nft add element ip t ci { 10.0.0.0/24 . 1-1024, 10.0.1.1 . 8080 }
nft get element ip t ci { 10.0.0.5 . 80 }
nft delete element ip t ci { 10.0.1.1 . 8080 }
nft list set ip t ci
nft add element ip t ci { 10.0.0.0/24 . 1-1024 }
