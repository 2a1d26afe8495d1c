# the present flag with oifname or type: EINVAL ("nft_fib: fix stale stack leak via the OIFNAME register"), with oif: accepted
nft add table ip t
nft add chain ip t pre { type filter hook prerouting priority 0 ; }
nft add rule ip t pre fib daddr oifname exists accept
nft add rule ip t pre fib daddr oif exists accept
nft add table ip6 t
nft add chain ip6 t pre { type filter hook prerouting priority 0 ; }
nft add rule ip6 t pre fib daddr oifname exists accept
nft add rule ip6 t pre fib saddr . iif oif missing drop
nft add table inet t
nft add chain inet t pre { type filter hook prerouting priority 0 ; }
nft add rule inet t pre fib daddr oifname exists accept
nft add rule inet t pre fib saddr . iif oif missing drop
nft list ruleset
