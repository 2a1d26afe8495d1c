nft add table inet t
nft add set inet t s { type ipv4_addr\; flags interval\; elements = { 10.0.0.0/8, 192.168.1.0/24, 1.1.1.1 }\; }
nft get element inet t s { 10.1.2.3 }
nft get element inet t s { 192.168.1.0/24 }
nft get element inet t s { 192.168.1.5-192.168.1.6 }
nft get element inet t s { 1.1.1.1, 10.0.0.1 }
nft get element inet t s { 2.2.2.2 }
nft add set inet t c { typeof ip saddr . tcp dport\; elements = { 1.1.1.1 . 22, 2.2.2.2 . 80 }\; }
nft get element inet t c { 1.1.1.1 . 22 }
nft get element inet t c { 1.1.1.1 . 23 }
nft add map inet t m { typeof ip saddr . tcp dport : ip daddr\; elements = { 1.1.1.1 . 22 : 9.9.9.9 }\; }
nft get element inet t m { 1.1.1.1 . 22 }
nft add map inet t v { typeof ip saddr . tcp dport : verdict\; flags interval\; elements = { 10.0.0.0/8 . 22-25 : accept, 1.1.1.1 . 80 : drop }\; }
nft get element inet t v { 10.1.1.1 . 23 }
nft add chain inet t c1
nft add rule inet t c1 ip saddr . tcp dport vmap @v
nft add rule inet t c1 ip saddr . tcp dport @c accept
nft delete set inet t c
nft delete map inet t v
nft flush set inet t c
nft flush map inet t v
nft -a list ruleset
nft list set inet t tm
nft add set inet t nt { type ipv4_addr\; }
nft add element inet t nt { 1.1.1.1 timeout 1d }
nft add set inet t sz { type ipv4_addr\; size 2\; }
nft add element inet t sz { 1.1.1.1, 2.2.2.2 }
nft add element inet t sz { 3.3.3.3 }
nft add element inet t sz { 1.1.1.1 }
nft delete element inet t sz { 1.1.1.1 }
nft add element inet t sz { 3.3.3.3 }
nft list set inet t sz
nft add set inet t cs { type ipv4_addr\; flags constant\; elements = { 1.1.1.1 }\; }
nft add element inet t cs { 2.2.2.2 }
nft add rule inet t c1 ip saddr @cs accept
nft add element inet t cs { 3.3.3.3 }
nft delete element inet t cs { 1.1.1.1 }
nft flush set inet t cs
nft -a list set inet t cs
nft add set inet t r { type inet_service\; flags interval\; elements = { 10-20, 21-30, 40, 50-60 }\; }
nft get element inet t r { 10 }
nft get element inet t r { 15 }
nft get element inet t r { 20 }
nft get element inet t r { 21 }
nft get element inet t r { 25-30 }
nft get element inet t r { 10-25 }
nft get element inet t r { 31 }
nft get element inet t r { 40 }
nft get element inet t r { 41 }
nft get element inet t r { 55-56, 12 }
nft get element inet t r { 35-45 }
nft get element inet t r { 60-61 }
nft add set inet t r6 { type ipv6_addr\; flags interval\; elements = { ::1, 2001:db8::/32 }\; }
nft get element inet t r6 { 2001:db8::1 }
nft get element inet t r6 { 2001:db8::/64 }
nft get element inet t r6 { ::2 }
