# statements in a chain/family where the kernel does not allow them
nft add table ip t
nft add chain ip t in { type filter hook input priority 0 ; }
nft add chain ip t out { type filter hook output priority 0 ; }
nft add rule ip t in snat to 1.2.3.4
nft add rule ip t in masquerade
nft add rule ip t out redirect to :80
nft add rule ip t in tproxy to :3128
nft add rule ip t out fib saddr . iif oif missing drop
nft add rule ip t in reject with tcp reset
nft add rule ip t in ct helper set "nope"
nft add chain ip t pre { type filter hook prerouting priority 0 ; }
nft add rule ip t pre meta oifname "lo"
nft add rule ip t pre synproxy mss 1460
nft add rule ip t in synproxy mss 1460
nft list ruleset
