# ranges and prefixes need flags interval; ifname wildcards too
nft add table ip t
nft add set ip t s { type ipv4_addr ; }
nft add element ip t s { 10.0.0.0/8 }
nft add element ip t s { 10.0.0.1-10.0.0.5 }
nft add set ip t i { type ifname ; }
nft add element ip t i { '"eth*"' }
nft add set ip t p { type inet_service ; }
nft add element ip t p { 1-1024 }
nft list ruleset
